package api_test

import (
	"strings"
	"testing"
)

// TestDefaultFoldersAndFolderFilter: a user starts with the reference's
// system folders; the pipeline files a new conversation in the one for its
// category; folder_id filters by it, an unknown one finds nothing and an
// empty one is a 422, as the reference answers, not every conversation.
func TestDefaultFoldersAndFolderFilter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dev := bearer(e.devAll)
	folders := decodeList(t, e.do("GET", "/v1/dev/user/folders", dev, ""))
	var names []string
	ids := map[string]string{}
	for _, f := range folders {
		names = append(names, f["name"].(string))
		ids[f["name"].(string)] = f["id"].(string)
		if f["is_system"] != true || f["is_default"] != (f["name"] == "Other") || f["icon"] == "" {
			t.Errorf("folder %v", f)
		}
	}
	want := "Personal Work Health Education Finance Travel Social Technology Entertainment Other"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("folders %q, want %q", got, want)
	}

	conv := e.create(meetingBody) // the builtin pipeline calls it business
	got := decode(t, e.do("GET", "/v1/dev/user/conversations/"+conv["id"].(string), dev, ""))
	if got["folder_id"] != ids["Work"] {
		t.Fatalf("a business conversation is in folder %v, want Work %s", got["folder_id"], ids["Work"])
	}
	e.run(t, []apiCase{
		{Name: "ByFolder", Method: "GET", Path: "/v1/dev/user/conversations?folder_id=" + ids["Work"], Auth: dev, WantStatus: 200,
			WantContains: []string{`"id":"` + conv["id"].(string) + `"`}},
		{Name: "OtherFolder", Method: "GET", Path: "/v1/dev/user/conversations?folder_id=" + ids["Health"], Auth: dev, WantStatus: 200,
			WantAbsent: []string{`"id"`}},
		{Name: "UnknownFolder", Method: "GET", Path: "/v1/dev/user/conversations?folder_id=nope", Auth: dev, WantStatus: 200, WantAbsent: []string{`"id"`}},
		{Name: "EmptyFolder", Method: "GET", Path: "/v1/dev/user/conversations?folder_id=", Auth: dev, WantStatus: 422,
			WantContains: []string{`"type":"string_too_short"`, `"loc":["query","folder_id"]`, "String should have at least 1 character"}},
	})
}
