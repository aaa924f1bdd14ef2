package conversation_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/store"
)

// The appender child process: it appends batches to a recording as fast as
// it can and prints "acked N" after each Append returns, until it is
// killed. TestMain runs it instead of the tests when the parent test sets
// these variables, so it is no test of its own that would pass, empty,
// whenever the variables are missing.
const (
	envDir  = "HEARTH_APPEND_CHILD_DIR"
	envUser = "HEARTH_APPEND_CHILD_USER"
	envConv = "HEARTH_APPEND_CHILD_CONV"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envDir); dir != "" {
		appendChild(dir, os.Getenv(envUser), os.Getenv(envConv))
	}
	os.Exit(m.Run())
}

// appendChild appends until it is killed; any failure exits with status 3
// after a line the parent reports.
func appendChild(dir, user, conv string) {
	ctx := context.Background()
	db, err := store.Open(ctx, dir)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(3)
	}
	svc := conversation.New(conversation.Deps{Store: db})
	for batch := 1; ; batch++ {
		segs := []appliance.TranscriptSegment{
			{Text: fmt.Sprintf("batch %d first words", batch), Speaker: "SPEAKER_00"},
			{Text: fmt.Sprintf("batch %d second words", batch), Speaker: "SPEAKER_01", SpeakerID: 1},
		}
		if err := svc.Append(ctx, user, conv, segs); err != nil {
			fmt.Println("append:", err)
			os.Exit(3)
		}
		fmt.Printf("acked %d\n", batch)
	}
}

// TestAppendSurvivesKill9: once Append returns, its segments are on disk.
// A child process appends in a loop and reports each acknowledged batch;
// it is killed with SIGKILL mid-stream, and every acknowledged batch must
// be in the database afterwards, in order.
func TestAppendSurvivesKill9(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	u := &appliance.User{ID: "u1", Name: "Ada", CreatedAt: time.Now()}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	conv, err := conversation.New(conversation.Deps{Store: db}).Start(ctx, conversation.Recording{UserID: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envDir+"="+dir, envUser+"="+u.ID, envConv+"="+conv.ID)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := 0
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if n, ok := strings.CutPrefix(line, "acked "); ok {
			acked, _ = strconv.Atoi(n)
			if acked >= 40 {
				break
			}
			continue
		}
		t.Fatalf("child: %s", line)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup runs
		t.Fatal(err)
	}
	cmd.Wait()
	if acked < 40 {
		t.Fatalf("child acknowledged only %d batches", acked)
	}

	db, err = store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.Conversation(ctx, u.ID, conv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.TranscriptSegments) < 2*acked {
		t.Fatalf("%d segments after kill -9, but %d batches (%d segments) were acknowledged", len(got.TranscriptSegments), acked, 2*acked)
	}
	for i := range 2 * acked {
		want := fmt.Sprintf("batch %d ", i/2+1)
		if !strings.HasPrefix(got.TranscriptSegments[i].Text, want) {
			t.Fatalf("segment %d is %q, want %q…", i, got.TranscriptSegments[i].Text, want)
		}
	}
	if got.Status != appliance.StatusInProgress {
		t.Fatalf("status %s after the crash, want in_progress (the silence timeout finishes it)", got.Status)
	}
}
