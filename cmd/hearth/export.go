package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/store"
)

// exportPage is how many conversations are read at a time: an export of a
// year of conversations streams out in flat memory.
const exportPage = 200

// runExport writes a user's conversations, memories and action items as
// JSON (for programs) or Markdown (for people).
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("export", stderr)
	data := fs.String("data", "", "the appliance's data directory")
	user := fs.String("user", "", "whose data to export")
	format := fs.String("format", "markdown", "json or markdown")
	out := fs.String("out", "", "write to this file (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *format != "json" && *format != "markdown" {
		return usageErr("--format %q: json or markdown", *format)
	}
	db, u, err := openForUser(ctx, *data, *user)
	if err != nil {
		return err
	}
	defer db.Close()
	w := stdout
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	ex := exporter{db: db, user: u, w: bw}
	if *format == "json" {
		err = ex.json(ctx)
	} else {
		err = ex.markdown(ctx)
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "export: %s, %s, %s\n", counted(ex.conversations, "conversation"), counted(ex.memories, "memory"), counted(ex.actionItems, "action item"))
	return nil
}

type exporter struct {
	db                                   *store.DB
	user                                 *appliance.User
	w                                    *bufio.Writer
	conversations, memories, actionItems int
}

// eachConversation visits every conversation, newest first, with its
// transcript, including discarded and locked ones: it is the owner's data.
func (e *exporter) eachConversation(ctx context.Context, fn func(*appliance.Conversation) error) error {
	for offset := 0; ; offset += exportPage {
		cs, err := e.db.Conversations(ctx, e.user.ID, appliance.ConversationFilter{Limit: exportPage, Offset: offset,
			IncludeDiscarded: true, IncludeLocked: true, WithTranscript: true})
		if err != nil {
			return err
		}
		for _, c := range cs {
			e.conversations++
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(cs) < exportPage {
			return nil
		}
	}
}

func (e *exporter) allMemories(ctx context.Context) ([]*appliance.Memory, error) {
	var all []*appliance.Memory
	for offset := 0; ; offset += 500 {
		ms, err := e.db.Memories(ctx, e.user.ID, appliance.MemoryFilter{Limit: 500, Offset: offset})
		if err != nil {
			return nil, err
		}
		all = append(all, ms...)
		if len(ms) < 500 {
			e.memories = len(all)
			return all, nil
		}
	}
}

func (e *exporter) allActionItems(ctx context.Context) ([]*appliance.ActionItem, error) {
	var all []*appliance.ActionItem
	for offset := 0; ; offset += 500 {
		items, err := e.db.ActionItems(ctx, e.user.ID, appliance.ActionItemFilter{Limit: 500, Offset: offset, IncludeLocked: true})
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if len(items) < 500 {
			e.actionItems = len(all)
			return all, nil
		}
	}
}

// json writes one object: {user, exported_at, conversations, memories,
// action_items}, the conversations streamed one by one.
func (e *exporter) json(ctx context.Context) error {
	head, _ := json.Marshal(map[string]any{"id": e.user.ID, "name": e.user.Name})
	fmt.Fprintf(e.w, `{"user":%s,"exported_at":%q,"conversations":[`, head, time.Now().UTC().Format(time.RFC3339))
	first := true
	err := e.eachConversation(ctx, func(c *appliance.Conversation) error {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if !first {
			e.w.WriteByte(',')
		}
		first = false
		_, err = e.w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	ms, err := e.allMemories(ctx)
	if err != nil {
		return err
	}
	items, err := e.allActionItems(ctx)
	if err != nil {
		return err
	}
	mb, _ := json.Marshal(nonNilSlice(ms))
	ib, _ := json.Marshal(nonNilSlice(items))
	fmt.Fprintf(e.w, `],"memories":%s,"action_items":%s}`+"\n", mb, ib)
	return nil
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// markdown writes a document a person can read: conversations with their
// summaries, action items and transcripts, then memories and action items.
func (e *exporter) markdown(ctx context.Context) error {
	loc := time.Local
	if e.user.TimeZone != "" {
		if l, err := time.LoadLocation(e.user.TimeZone); err == nil {
			loc = l
		}
	}
	fmt.Fprintf(e.w, "# Hearth export for %s\n\nExported %s.\n\n## Conversations\n", e.user.Name, time.Now().In(loc).Format("2 January 2006, 15:04 MST"))
	err := e.eachConversation(ctx, func(c *appliance.Conversation) error {
		// The emoji is the category's icon, shown beside the category as
		// the reference shows it, never part of the title.
		title := c.Structured.Title
		if title == "" {
			title = "(untitled)"
		}
		fmt.Fprintf(e.w, "\n### %s\n\n", title)
		when := "unknown time"
		if c.StartedAt != nil {
			when = c.StartedAt.In(loc).Format("Mon 2 Jan 2006, 15:04")
		}
		notes := []string{when, strings.TrimSpace(c.Structured.Emoji + " " + string(c.Structured.Category))}
		if c.Discarded {
			notes = append(notes, "discarded")
		}
		fmt.Fprintf(e.w, "*%s*\n\n", strings.Join(notes, " · "))
		if c.Structured.Overview != "" {
			fmt.Fprintf(e.w, "%s\n\n", c.Structured.Overview)
		}
		for _, a := range c.Structured.ActionItems {
			fmt.Fprintf(e.w, "- %s %s%s\n", checkbox(a.Completed), a.Description, due(a.DueAt, loc))
		}
		if len(c.TranscriptSegments) > 0 {
			e.w.WriteString("\nTranscript:\n\n")
			// Speakers are named as the API and the console name them: the
			// people the owner named, not the recognizer's SPEAKER_01.
			var ids []string
			for _, s := range c.TranscriptSegments {
				if s.PersonID != nil {
					ids = append(ids, *s.PersonID)
				}
			}
			people, err := e.db.PersonNames(ctx, e.user.ID, ids)
			if err != nil {
				return err
			}
			for _, s := range c.TranscriptSegments {
				who := appliance.SpeakerName(s, e.user.Name, people)
				fmt.Fprintf(e.w, "> **%s** (%s): %s\n>\n", who, clock(s.Start), s.Text)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	ms, err := e.allMemories(ctx)
	if err != nil {
		return err
	}
	e.w.WriteString("\n## Memories\n\n")
	for _, m := range ms {
		fmt.Fprintf(e.w, "- %s *(%s, %s)*\n", m.Content, m.Category, m.CreatedAt.In(loc).Format("2 Jan 2006"))
	}
	items, err := e.allActionItems(ctx)
	if err != nil {
		return err
	}
	e.w.WriteString("\n## Action items\n\n")
	for _, a := range items {
		fmt.Fprintf(e.w, "- %s %s%s\n", checkbox(a.Completed), a.Description, due(a.DueAt, loc))
	}
	return nil
}

func checkbox(done bool) string {
	if done {
		return "[x]"
	}
	return "[ ]"
}

func due(t *time.Time, loc *time.Location) string {
	if t == nil {
		return ""
	}
	return " (due " + t.In(loc).Format("Mon 2 Jan 2006, 15:04") + ")"
}

// counted is n things, in the singular for one: "1 memory", "2 memories".
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(thing, "y"))
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
