package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

func TestMemoriesAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all, ro := bearer(e.devAll), bearer(e.devRO)
	const path = "/v1/dev/user/memories"
	created := decode(t, e.do("POST", path, all, `{"content":"  I prefer oat milk in coffee  ","tags":["food"]}`))
	if created["content"] != "I prefer oat milk in coffee" || created["category"] != "system" || created["manually_added"] != true ||
		created["visibility"] != "private" || !strings.HasPrefix(created["scoring"].(string), "01_999_") {
		t.Fatalf("created %v", created)
	}
	id := created["id"].(string)
	long := decode(t, e.do("POST", path, all, `{"content":"`+strings.Repeat("word ", 30)+`","category":"interesting"}`))
	mem, _ := e.db.Memory(context.Background(), e.user, long["id"].(string))
	mem.IsLocked = true
	e.db.UpdateMemory(context.Background(), mem)
	e.run(t, []apiCase{
		{Name: "ListShowsBoth", Method: "GET", Path: path, Auth: ro, WantStatus: 200,
			WantContains: []string{"oat milk", `"tags":["food"]`, strings.Repeat("word ", 14) + "...", `"reviewed":true`}},
		{Name: "ListCategory", Method: "GET", Path: path + "?categories=interesting", Auth: ro, WantStatus: 200, WantAbsent: []string{"oat milk"}},
		{Name: "ListBadCategory", Method: "GET", Path: path + "?categories=dreams", Auth: ro, WantStatus: 400, WantContains: []string{"Invalid category"}},
		{Name: "ReadOnlyCannotCreate", Method: "POST", Path: path, Auth: ro, Body: `{"content":"x"}`, WantStatus: 403,
			WantContains: []string{"Required scope: memories:write"}},
		{Name: "EmptyContent", Method: "POST", Path: path, Auth: all, Body: `{"content":"  "}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","content"]`, "string_too_short"}},
		{Name: "LongContent", Method: "POST", Path: path, Auth: all, Body: `{"content":"` + strings.Repeat("x", 501) + `"}`, WantStatus: 422},
		{Name: "BadCategory", Method: "POST", Path: path, Auth: all, Body: `{"content":"x","category":"dreams"}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","category"]`}},
		{Name: "LegacyCategoryIsSystem", Method: "POST", Path: path, Auth: all, Body: `{"content":"likes chess","category":"hobbies"}`,
			WantStatus: 200, WantContains: []string{`"category":"system"`}},
		{Name: "PatchNothing", Method: "PATCH", Path: path + "/" + id, Auth: all, Body: `{}`, WantStatus: 422,
			WantContains: []string{"At least one field (content, visibility, tags, or category) must be provided"}},
		{Name: "PatchBadVisibility", Method: "PATCH", Path: path + "/" + id, Auth: all, Body: `{"visibility":"friends"}`, WantStatus: 422,
			WantContains: []string{"visibility must be 'public' or 'private'"}},
		{Name: "Patch", Method: "PATCH", Path: path + "/" + id, Auth: all, Body: `{"content":"I prefer soy milk","visibility":"public"}`,
			WantStatus: 200, WantContains: []string{`"content":"I prefer soy milk"`, `"edited":true`, `"visibility":"public"`}},
		{Name: "PatchLocked", Method: "PATCH", Path: path + "/" + mem.ID, Auth: all, Body: `{"content":"x"}`, WantStatus: 402,
			WantContains: []string{"This memory is locked: its owner has hidden it from assistants", "/v1/dev/user/memories/{id}/locked"}, WantAbsent: []string{"paid plan"}},
		{Name: "PatchMissing", Method: "PATCH", Path: path + "/nope", Auth: all, Body: `{"content":"x"}`, WantStatus: 404,
			WantContains: []string{`"detail":"Memory not found"`}},
		{Name: "OtherUserCannotDelete", Method: "DELETE", Path: path + "/" + id, Auth: bearer(e.otherRW), WantStatus: 403},
		{Name: "Delete", Method: "DELETE", Path: path + "/" + id, Auth: all, WantStatus: 200, WantContains: []string{`{"success":true}`}},
		{Name: "DeleteAgain", Method: "DELETE", Path: path + "/" + id, Auth: all, WantStatus: 404},
	})
	t.Run("Batch", func(t *testing.T) {
		var items []string
		for i := range 25 {
			items = append(items, fmt.Sprintf(`{"content":"batch fact %d"}`, i))
		}
		got := decode(t, e.do("POST", path+"/batch", all, `{"memories":[`+strings.Join(items, ",")+`]}`))
		if got["created_count"] != 25.0 {
			t.Fatalf("batch: %v", got["created_count"])
		}
		items = append(items, `{"content":"one too many"}`)
		e.run(t, []apiCase{
			{Name: "TooMany", Method: "POST", Path: path + "/batch", Auth: all, Body: `{"memories":[` + strings.Join(items, ",") + `]}`,
				WantStatus: 422, WantContains: []string{"too_long"}},
			{Name: "OneBadItem", Method: "POST", Path: path + "/batch", Auth: all, Body: `{"memories":[{"content":"ok"},{"content":""}]}`,
				WantStatus: 422, WantContains: []string{`"loc":["body","memories",1,"content"]`}},
			{Name: "Empty", Method: "POST", Path: path + "/batch", Auth: all, Body: `{"memories":[]}`, WantStatus: 200,
				WantContains: []string{`"created_count":0`}},
		})
		if n, _ := e.db.Memories(context.Background(), e.user, appliance.MemoryFilter{Limit: 500}); len(n) != 27 { // 2 left from the table above + 25
			t.Fatalf("a refused batch wrote memories: %d stored", len(n))
		}
	})
}

func TestActionItemsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := bearer(e.devAll)
	const path = "/v1/dev/user/action-items"
	a := decode(t, e.do("POST", path, all, `{"description":"Renew the passport","due_at":"2026-03-01T09:00:00+01:00"}`))
	if a["due_at"] != "2026-03-01T08:00:00Z" || a["completed"] != false || a["completed_at"] != nil || a["conversation_id"] != nil {
		t.Fatalf("created %v", a)
	}
	id := a["id"].(string)
	done := decode(t, e.do("PATCH", path+"/"+id, all, `{"completed":true}`))
	if done["completed"] != true || done["completed_at"] == nil {
		t.Fatalf("completed %v", done)
	}
	undone := decode(t, e.do("PATCH", path+"/"+id, all, `{"completed":false}`))
	if undone["completed_at"] != nil {
		t.Fatalf("uncompleted %v", undone)
	}
	var batch []string
	for i := range 51 {
		batch = append(batch, fmt.Sprintf(`{"description":"task %d"}`, i))
	}
	e.run(t, []apiCase{
		{Name: "BatchTooMany", Method: "POST", Path: path + "/batch", Auth: all, Body: `{"action_items":[` + strings.Join(batch, ",") + `]}`, WantStatus: 422},
		{Name: "Batch", Method: "POST", Path: path + "/batch", Auth: all, Body: `{"action_items":[` + strings.Join(batch[:50], ",") + `]}`,
			WantStatus: 200, WantContains: []string{`"created_count":50`}},
		{Name: "ListCompletedFalse", Method: "GET", Path: path + "?completed=false&limit=2", Auth: all, WantStatus: 200},
		{Name: "EmptyDescription", Method: "POST", Path: path, Auth: all, Body: `{"description":""}`, WantStatus: 422},
		{Name: "BadDue", Method: "POST", Path: path, Auth: all, Body: `{"description":"x","due_at":"someday"}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","due_at"]`}},
		{Name: "PatchNothing", Method: "PATCH", Path: path + "/" + id, Auth: all, Body: `{}`, WantStatus: 422,
			WantContains: []string{"At least one field must be provided"}},
		{Name: "Missing", Method: "PATCH", Path: path + "/nope", Auth: all, Body: `{"completed":true}`, WantStatus: 404,
			WantContains: []string{`"detail":"Action item not found"`}},
		{Name: "ConversationsKeyCannotRead", Method: "GET", Path: path, Auth: bearer(e.devRW), WantStatus: 403},
		{Name: "Delete", Method: "DELETE", Path: path + "/" + id, Auth: all, WantStatus: 200},
		{Name: "DeleteAgain", Method: "DELETE", Path: path + "/" + id, Auth: all, WantStatus: 404},
	})
	if l := decodeList(t, e.do("GET", path+"?limit=500", all, "")); len(l) != 50 {
		t.Fatalf("listed %d, want 50", len(l))
	}
}

func TestGoalsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := bearer(e.devAll)
	const path = "/v1/dev/user/goals"
	var ids []string
	for i := range 4 {
		g := decode(t, e.do("POST", path, all, fmt.Sprintf(`{"title":"Run %d km a week","target_value":%d,"unit":"km"}`, i+10, i+10)))
		if g["goal_type"] != "scale" || g["max_value"] != float64(max(10, i+10)) || g["is_active"] != true || !strings.HasPrefix(g["id"].(string), "goal_") {
			t.Fatalf("goal %v", g)
		}
		ids = append(ids, g["id"].(string))
		e.clock.Add(time.Second)
	}
	if l := decodeList(t, e.do("GET", path, all, "")); len(l) != 3 {
		t.Fatalf("active goals %d, want 3", len(l))
	}
	if l := decodeList(t, e.do("GET", path+"?include_inactive=true", all, "")); len(l) != 4 {
		t.Fatalf("all goals %d, want 4", len(l))
	}
	last := ids[3]
	e.clock.Add(time.Minute)
	if g := decode(t, e.do("PATCH", path+"/"+last+"/progress?current_value=7.5", all, "")); g["current_value"] != 7.5 {
		t.Fatalf("progress %v", g)
	}
	if h := decodeList(t, e.do("GET", path+"/"+last+"/history", all, "")); len(h) != 2 || h[1]["value"] != 7.5 {
		t.Fatalf("history %v", h)
	}
	e.run(t, []apiCase{
		{Name: "Get", Method: "GET", Path: path + "/" + last, Auth: all, WantStatus: 200, WantContains: []string{`"unit":"km"`}},
		{Name: "Missing", Method: "GET", Path: path + "/goal_nope", Auth: all, WantStatus: 404, WantContains: []string{`"detail":"Goal not found"`}},
		{Name: "NoTarget", Method: "POST", Path: path, Auth: all, Body: `{"title":"x"}`, WantStatus: 422,
			WantContains: []string{`"loc":["body","target_value"]`}},
		{Name: "BadType", Method: "POST", Path: path, Auth: all, Body: `{"title":"x","target_value":1,"goal_type":"vibes"}`, WantStatus: 422},
		{Name: "PatchNothing", Method: "PATCH", Path: path + "/" + last, Auth: all, Body: `{}`, WantStatus: 422},
		{Name: "Patch", Method: "PATCH", Path: path + "/" + last, Auth: all, Body: `{"title":"Run 20 km","target_value":20}`, WantStatus: 200,
			WantContains: []string{`"title":"Run 20 km"`, `"target_value":20`}},
		{Name: "ProgressNotANumber", Method: "PATCH", Path: path + "/" + last + "/progress?current_value=lots", Auth: all, WantStatus: 422},
		{Name: "ProgressInfinity", Method: "PATCH", Path: path + "/" + last + "/progress?current_value=Infinity", Auth: all, WantStatus: 422,
			WantContains: []string{`"type":"finite_number"`}},
		{Name: "ProgressNaN", Method: "PATCH", Path: path + "/" + last + "/progress?current_value=NaN", Auth: all, WantStatus: 422},
		{Name: "ProgressAboveMax", Method: "PATCH", Path: path + "/" + last + "/progress?current_value=21", Auth: all, WantStatus: 422,
			WantContains: []string{`"loc":["query","current_value"]`, "between min_value (0) and max_value (20)"}},
		{Name: "NumericTargetIsItsMax", Method: "POST", Path: path, Auth: all, Body: `{"title":"Read","goal_type":"numeric","target_value":100}`,
			WantStatus: 200, WantContains: []string{`"max_value":100`, `"min_value":0`}},
		{Name: "BooleanRange", Method: "POST", Path: path, Auth: all, Body: `{"title":"Quit","goal_type":"boolean","target_value":1}`,
			WantStatus: 200, WantContains: []string{`"max_value":1`}},
		{Name: "MinAboveMax", Method: "POST", Path: path, Auth: all, Body: `{"title":"x","target_value":5,"min_value":8,"max_value":2}`,
			WantStatus: 422, WantContains: []string{`"loc":["body","min_value"]`}},
		{Name: "CurrentOutsideRange", Method: "POST", Path: path, Auth: all, Body: `{"title":"x","target_value":5,"current_value":-1}`,
			WantStatus: 422, WantContains: []string{`"loc":["body","current_value"]`}},
		{Name: "ProgressMissing", Method: "PATCH", Path: path + "/" + last + "/progress", Auth: all, WantStatus: 422},
		{Name: "HistoryTooLong", Method: "GET", Path: path + "/" + last + "/history?days=400", Auth: all, WantStatus: 422},
		{Name: "Delete", Method: "DELETE", Path: path + "/" + last, Auth: all, WantStatus: 200},
		{Name: "DeleteAgain", Method: "DELETE", Path: path + "/" + last, Auth: all, WantStatus: 404},
	})
}

func TestFoldersAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rw := bearer(e.devRW)
	f := decode(t, e.do("POST", "/v1/dev/user/folders", rw, `{"name":"Work","color":"#ff0000"}`))
	fid := f["id"].(string)
	conv := e.create(meetingBody)["id"].(string)
	moved := decode(t, e.do("PUT", "/v1/dev/user/conversations/"+conv+"/folder", rw, `{"folder_id":"`+fid+`"}`))
	if moved["folder_id"] != fid || moved["folder_name"] != "Work" {
		t.Fatalf("moved %v", moved)
	}
	if l := decodeList(t, e.do("GET", "/v1/dev/user/conversations?folder_id="+fid, rw, "")); len(l) != 1 {
		t.Fatalf("folder filter: %d", len(l))
	}
	e.run(t, []apiCase{
		{Name: "List", Method: "GET", Path: "/v1/dev/user/folders", Auth: rw, WantStatus: 200, WantContains: []string{`"name":"Work"`}},
		{Name: "Rename", Method: "PATCH", Path: "/v1/dev/user/folders/" + fid, Auth: rw, Body: `{"name":"Office"}`, WantStatus: 200},
		{Name: "NameRequired", Method: "POST", Path: "/v1/dev/user/folders", Auth: rw, Body: `{}`, WantStatus: 422},
		{Name: "MoveToUnknown", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/folder", Auth: rw, Body: `{"folder_id":"nope"}`,
			WantStatus: 404, WantContains: []string{"Folder not found"}},
		{Name: "MoveNeedsField", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/folder", Auth: rw, Body: `{}`, WantStatus: 422},
		{Name: "OtherUserCannotRename", Method: "PATCH", Path: "/v1/dev/user/folders/" + fid, Auth: bearer(e.otherRW), Body: `{"name":"x"}`, WantStatus: 404},
		{Name: "NameShown", Method: "GET", Path: "/v1/dev/user/conversations/" + conv, Auth: rw, WantStatus: 200,
			WantContains: []string{`"folder_name":"Office"`}},
		{Name: "MoveOut", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/folder", Auth: rw, Body: `{"folder_id":null}`,
			WantStatus: 200, WantContains: []string{`"folder_id":null`}},
		{Name: "Delete", Method: "DELETE", Path: "/v1/dev/user/folders/" + fid, Auth: rw, WantStatus: 200},
	})
}

func TestDiscardRemovesExtractedMemories(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	conv := e.create(meetingBody)["id"].(string)
	now := time.Now()
	if err := e.db.CreateMemories(context.Background(), []*appliance.Memory{
		{ID: "extracted", UserID: e.user, Content: "Works on the budget", Category: "system", CreatedAt: now, UpdatedAt: now, ConversationID: &conv},
		{ID: "manual", UserID: e.user, Content: "Likes tea", Category: "manual", ManuallyAdded: true, CreatedAt: now, UpdatedAt: now, ConversationID: &conv},
	}); err != nil {
		t.Fatal(err)
	}
	if rec := e.do("PATCH", "/v1/dev/user/conversations/"+conv, bearer(e.devRW), `{"discarded":true}`); rec.Code != 200 {
		t.Fatalf("discard: %d", rec.Code)
	}
	if _, err := e.db.Memory(context.Background(), e.user, "extracted"); appliance.ErrorCode(err) != appliance.ENOTFOUND {
		t.Fatal("extracted memory survived its conversation's discard")
	}
	if _, err := e.db.Memory(context.Background(), e.user, "manual"); err != nil {
		t.Fatal("a manual memory was removed with the conversation")
	}
}

func TestLocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := bearer(e.devAll)
	conv := e.create(meetingBody)["id"].(string)
	mem := decode(t, e.do("POST", "/v1/dev/user/memories", all, `{"content":"`+strings.Repeat("secret ", 20)+`"}`))["id"].(string)
	e.run(t, []apiCase{
		{Name: "LockConversation", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/locked", Auth: all, Body: `{"locked":true}`,
			WantStatus: 200, WantContains: []string{`"locked":true`}},
		{Name: "LockedConversationHidden", Method: "GET", Path: "/v1/dev/user/conversations/" + conv, Auth: all, WantStatus: 404},
		{Name: "LockedConversationRefusesPatch", Method: "PATCH", Path: "/v1/dev/user/conversations/" + conv, Auth: all, Body: `{"title":"x"}`, WantStatus: 402},
		{Name: "UnlockConversation", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/locked", Auth: all, Body: `{"locked":false}`, WantStatus: 200},
		{Name: "VisibleAgain", Method: "GET", Path: "/v1/dev/user/conversations/" + conv, Auth: all, WantStatus: 200},
		{Name: "LockNeedsBool", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/locked", Auth: all, Body: `{}`, WantStatus: 422},
		{Name: "LockOtherUsers", Method: "PUT", Path: "/v1/dev/user/conversations/" + conv + "/locked", Auth: bearer(e.otherRW), Body: `{"locked":true}`, WantStatus: 404},
		{Name: "LockMemory", Method: "PUT", Path: "/v1/dev/user/memories/" + mem + "/locked", Auth: all, Body: `{"locked":true}`, WantStatus: 200},
		{Name: "LockedMemoryTruncated", Method: "GET", Path: "/v1/dev/user/memories", Auth: all, WantStatus: 200,
			WantContains: []string{strings.Repeat("secret ", 10)[:70] + "..."}},
		{Name: "LockedMemoryRefusesDelete", Method: "DELETE", Path: "/v1/dev/user/memories/" + mem, Auth: all, WantStatus: 402},
	})
}

func TestExtractionReachesTheAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := bearer(e.devAll)
	// A Monday morning in UTC; the user's zone is the appliance's (time.Local).
	body := `{"started_at":"2026-03-02T09:00:00Z","transcript_segments":[
		{"text":"I need to send the revised budget to finance by Friday.","is_user":true,"start":0,"end":4},
		{"text":"Great. Let's meet on Wednesday at 3 pm to review it.","speaker":"SPEAKER_01","start":4,"end":8},
		{"text":"Sounds good. By the way, I'm allergic to peanuts, so no snacks from that bakery please.","is_user":true,"start":8,"end":13}]}`
	rec := e.do("POST", fromSegments, all, body)
	if rec.Code != 200 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	id := decode(t, rec)["id"].(string)
	conv := decode(t, e.do("GET", "/v1/dev/user/conversations/"+id, all, ""))
	st := conv["structured"].(map[string]any)
	items := st["action_items"].([]any)
	if len(items) == 0 {
		t.Fatalf("no action items extracted: %v", st)
	}
	first := items[0].(map[string]any)
	if !strings.Contains(strings.ToLower(first["description"].(string)), "budget") || first["due_at"] == nil || first["conversation_id"] != id {
		t.Fatalf("action item %v", first)
	}
	if events := st["events"].([]any); len(events) == 0 || events[0].(map[string]any)["duration"] != 30.0 {
		t.Fatalf("events %v", st["events"])
	}
	listed := decodeList(t, e.do("GET", "/v1/dev/user/action-items?conversation_id="+id, all, ""))
	if len(listed) != len(items) {
		t.Fatalf("action items API lists %d of the conversation's %d", len(listed), len(items))
	}
	found := false
	for _, m := range decodeList(t, e.do("GET", "/v1/dev/user/memories", all, "")) {
		if strings.Contains(strings.ToLower(m["content"].(string)), "peanut") && m["conversation_id"] == id && m["manually_added"] == false {
			found = true
		}
	}
	if !found {
		t.Fatal("the extracted memory is not listed with its conversation")
	}
}

func TestConsoleSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	all := bearer(e.devAll)
	for _, c := range []string{"I keep the spare key with Margaret next door", "My daughter's piano recital is in May", "I prefer oat milk"} {
		if rec := e.do("POST", "/v1/dev/user/memories", all, `{"content":"`+c+`"}`); rec.Code != 200 {
			t.Fatal(rec.Body)
		}
	}
	e.create(meetingBody)
	tok := bearer(e.token)
	got := decode(t, e.do("GET", "/v1/search?q=spare+key", tok, ""))["results"].([]any)
	if len(got) == 0 || !strings.Contains(got[0].(map[string]any)["text"].(string), "Margaret") {
		t.Fatalf("memory search: %v", got)
	}
	got = decode(t, e.do("GET", "/v1/search?q=budget&kind=conversation", tok, ""))["results"].([]any)
	if len(got) != 1 || !strings.Contains(got[0].(map[string]any)["text"].(string), "Budget") {
		t.Fatalf("conversation search: %v", got)
	}
	// Without a kind, every kind is searched: a conversation is found by a
	// query that no memory matches.
	got = decode(t, e.do("GET", "/v1/search?q=budget", tok, ""))["results"].([]any)
	kinds := map[string]bool{}
	for _, h := range got {
		kinds[h.(map[string]any)["kind"].(string)] = true
	}
	if !kinds["conversation"] {
		t.Fatalf("search of every kind found %v", got)
	}
	e.run(t, []apiCase{
		{Name: "NeedsQuery", Method: "GET", Path: "/v1/search", Auth: tok, WantStatus: 422},
		{Name: "BadKind", Method: "GET", Path: "/v1/search?q=x&kind=goals", Auth: tok, WantStatus: 422},
		{Name: "NeedsToken", Method: "GET", Path: "/v1/search?q=x", Auth: all, WantStatus: 401},
		{Name: "OtherUsersSeeNothing", Method: "GET", Path: "/v1/search?q=spare+key", Auth: bearer(mustToken(t, e, e.other)), WantStatus: 200,
			WantContains: []string{`"results":[]`}},
	})
}

func mustToken(t *testing.T, e *env, uid string) string {
	t.Helper()
	tok, err := e.signer.Issue(uid, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestConsoleLocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mem := decode(t, e.do("POST", "/v1/dev/user/memories", bearer(e.devAll), `{"content":"My bank PIN hint is the dog's birthday"}`))["id"].(string)
	tok := bearer(e.token)
	e.run(t, []apiCase{
		{Name: "Lock", Method: "PUT", Path: "/v1/console/memories/" + mem + "/locked", Auth: tok, Body: `{"locked":true}`, WantStatus: 200},
		{Name: "SearchShowsLocked", Method: "GET", Path: "/v1/search?q=bank+PIN", Auth: tok, WantStatus: 200, WantContains: []string{`"locked":true`}},
		{Name: "NeedsToken", Method: "PUT", Path: "/v1/console/memories/" + mem + "/locked", Auth: bearer(e.devAll), Body: `{"locked":false}`, WantStatus: 401},
		{Name: "OtherUser", Method: "PUT", Path: "/v1/console/memories/" + mem + "/locked", Auth: bearer(mustToken(t, e, e.other)), Body: `{"locked":false}`, WantStatus: 404},
	})
}
