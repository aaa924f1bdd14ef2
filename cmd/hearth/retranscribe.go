package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// runRetranscribe asks the running appliance to transcribe conversations
// again from their kept audio (a background job there) and prints the
// job's progress until it ends; --cancel stops one. The job goes on if
// this command is interrupted.
func runRetranscribe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("retranscribe", stderr)
	var cf clientFlags
	cf.register(fs)
	route := fs.String("route", "", "the speech route to transcribe with (hearth serve's --stt-routes names); empty: the first that serves")
	all := fs.Bool("all", false, "every conversation of the user's with kept audio")
	cancel := fs.String("cancel", "", "cancel this job instead")
	wait := fs.Bool("wait", true, "print the job's progress until it ends")
	// Conversation ids may come before the flags too.
	var ids []string
	for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		ids, args = append(ids, args[0]), args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ids = append(ids, fs.Args()...)
	if *cancel == "" && *all == (len(ids) > 0) {
		return usageErr("name the conversations or give --all: hearth retranscribe [--route NAME] [--all | ID...]")
	}
	_, token, err := cf.credentials(ctx)
	if err != nil {
		return err
	}
	base, err := cf.base()
	if err != nil {
		return err
	}
	_, httpc, err := cf.transport()
	if err != nil {
		return err
	}
	call := func(method, path string, body any) (*appliance.RetranscribeJob, error) {
		var rd io.Reader
		if body != nil {
			b, err := json.Marshal(body)
			if err != nil {
				return nil, err
			}
			rd = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(ctx, method, base.String()+path, rd)
		if err != nil {
			return nil, usageErr("--url: %v", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpc.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		if err != nil {
			return nil, err
		}
		if resp.StatusCode/100 != 2 {
			var e struct{ Detail any }
			json.Unmarshal(data, &e)
			return nil, fmt.Errorf("%s: %v", resp.Status, e.Detail)
		}
		var j appliance.RetranscribeJob
		if err := json.Unmarshal(data, &j); err != nil {
			return nil, fmt.Errorf("read the job: %w", err)
		}
		return &j, nil
	}
	show := func(j *appliance.RetranscribeJob) {
		if cf.json {
			b, _ := json.Marshal(j)
			fmt.Fprintf(stdout, "%s\n", b)
			return
		}
		fmt.Fprintf(stdout, "job %s %s: %d of %d conversations done", j.ID, j.Status, j.Done, len(j.ConversationIDs))
		if j.Failed > 0 {
			fmt.Fprintf(stdout, ", %d kept their transcript (%s)", j.Failed, j.Error)
		}
		fmt.Fprintln(stdout)
	}
	if *cancel != "" {
		j, err := call("DELETE", "/v1/retranscribe/"+*cancel, nil)
		if err != nil {
			return err
		}
		show(j)
		return nil
	}
	j, err := call("POST", "/v1/retranscribe", map[string]any{"route": *route, "all": *all, "conversation_ids": nonNilIDs(ids)})
	if err != nil {
		return err
	}
	show(j)
	if !*wait {
		return nil
	}
	last := *j
	for j.Status.Open() {
		select {
		case <-ctx.Done():
			fmt.Fprintf(stderr, "hearth: the job goes on; cancel it with hearth retranscribe --cancel %s\n", j.ID)
			return nil
		case <-time.After(300 * time.Millisecond):
		}
		if j, err = call("GET", "/v1/retranscribe/"+j.ID, nil); err != nil {
			return err
		}
		if j.Status != last.Status || j.Done != last.Done {
			show(j)
			last = *j
		}
	}
	if j.Status != appliance.RetranscribeDone {
		return fmt.Errorf("job %s %s: %s", j.ID, j.Status, j.Error)
	}
	return nil
}

func nonNilIDs(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
