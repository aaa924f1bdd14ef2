package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rpcEncode marshals a result as the SDK's JSON-RPC layer does: without
// HTML escaping, then again inside the response as a raw message.
func rpcEncode(t testing.TB, res sdk.Result) []byte {
	t.Helper()
	encode := func(v any) []byte {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	}
	raw := encode(res)
	return encode(struct {
		Version string          `json:"jsonrpc"`
		ID      int             `json:"id"`
		Result  json.RawMessage `json:"result"`
	}{"2.0", 2, raw})
}

func textResultOf(texts ...string) *sdk.CallToolResult {
	r := &sdk.CallToolResult{Content: []sdk.Content{}}
	for _, s := range texts {
		r.Content = append(r.Content, &sdk.TextContent{Text: s})
	}
	return r
}

func TestLeanResult_SameJSONAsTheSDK(t *testing.T) {
	t.Parallel()
	pretty, err := prettyJSON(map[string]any{"memories": []map[string]any{{"content": `Emma said "ship it" <today> & tomorrow`, "id": "m1"}}})
	if err != nil {
		t.Fatal(err)
	}
	withErr := textResultOf("Conversation is locked")
	withErr.IsError = true
	withMeta := textResultOf("x")
	withMeta.Meta = sdk.Meta{"k": "v"}
	cases := map[string]*sdk.CallToolResult{
		"indented JSON":         textResultOf(pretty),
		"empty text":            textResultOf(""),
		"no blocks":             textResultOf(),
		"two blocks":            textResultOf("a", "b"),
		"error result":          withErr,
		"meta":                  withMeta,
		"control and non-ASCII": textResultOf("tab\there\u0001 \u2028 émoji 💻 \\ back"),
		"invalid UTF-8":         textResultOf("bad \xff byte"),
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			lean := leanResult(r)
			if _, ok := lean.(*leanTextResult); !ok {
				t.Fatalf("leanResult kept %T, want *leanTextResult", lean)
			}
			var want, got any
			if err := json.Unmarshal(rpcEncode(t, r), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(rpcEncode(t, lean), &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("wire JSON differs from the SDK's (-sdk +lean):\n%s", d)
			}
			// A client decodes the same result from either.
			decode := func(res sdk.Result) *sdk.CallToolResult {
				raw, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				var back sdk.CallToolResult
				if err := json.Unmarshal(raw, &back); err != nil {
					t.Fatal(err)
				}
				return &back
			}
			if d := cmp.Diff(decode(r), decode(lean), cmp.AllowUnexported(sdk.CallToolResult{})); d != "" {
				t.Errorf("client decodes a different result (-sdk +lean):\n%s", d)
			}
		})
	}
}

func TestLeanResult_KeepsWhatItCannotEncode(t *testing.T) {
	t.Parallel()
	structured := textResultOf("{}")
	structured.StructuredContent = map[string]any{"a": 1}
	state := textResultOf("x")
	state.RequestState = "opaque"
	annotated := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x", Annotations: &sdk.Annotations{Priority: 1}}}}
	image := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x"}, &sdk.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}}
	var nilResult *sdk.CallToolResult
	for name, r := range map[string]sdk.Result{
		"structured content": structured,
		"request state":      state,
		"annotations":        annotated,
		"image block":        image,
		"nil result":         nilResult,
		"not a tool result":  &sdk.ListToolsResult{},
	} {
		if got := leanResult(r); got != r {
			t.Errorf("%s: leanResult replaced it with %T", name, got)
		}
	}
}

func TestLeanResult_MetaSetAfterwardsIsSent(t *testing.T) {
	t.Parallel()
	lean := leanResult(textResultOf("x"))
	lean.SetMeta(map[string]any{"io.example/server": "hearth"})
	if !strings.Contains(string(rpcEncode(t, lean)), `"_meta":{"io.example/server":"hearth"}`) {
		t.Errorf("meta set after the handler is missing: %s", rpcEncode(t, lean))
	}
	if lean.GetMeta()["io.example/server"] != "hearth" {
		t.Errorf("GetMeta = %v", lean.GetMeta())
	}
}

// BenchmarkToolResultEncoding encodes a get_conversations-sized answer (30
// KB on the wire) as the JSON-RPC layer does, with the SDK's result type
// and with the lean one.
func BenchmarkToolResultEncoding(b *testing.B) {
	item := map[string]any{"id": "01a21529-34b3-7bb6-b8e1-ba9572bf9f29", "title": "Database Migration",
		"overview": strings.Repeat(`The customer asked for a "demo" before the end of April. `, 22)}
	items := make([]map[string]any, 20)
	for i := range items {
		items[i] = item
	}
	text, err := prettyJSON(map[string]any{"conversations": items})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		res  func() sdk.Result
	}{
		{"sdk", func() sdk.Result { return textResultOf(text) }},
		{"lean", func() sdk.Result { return leanResult(textResultOf(text)) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(rpcEncode(b, bc.res()))))
			for b.Loop() {
				rpcEncode(b, bc.res())
			}
		})
	}
}
