package mcp

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// leanTextResult is a tools/call result made only of text blocks, in the
// same JSON as the SDK's *CallToolResult but without a MarshalJSON method.
//
// encoding/json compacts (re-scans and copies) the output of every
// Marshaler it meets. The SDK's result and text types are Marshalers, and
// its JSON-RPC layer marshals the result and then the response holding it
// as a json.RawMessage, so a tool's text went through three full scans
// after it was escaped; a 30 KB get_conversations answer spent a fifth of
// the call's CPU there. Marshalled by encoding/json's struct encoder, the
// text is escaped once and the response's RawMessage is the only scan left.
type leanTextResult struct {
	// Result supplies the unexported marker method that makes this an MCP
	// result; its value is the *sdk.CallToolResult this replaces.
	sdk.Result `json:"-"`

	Meta    sdk.Meta   `json:"_meta,omitempty"`
	Content []leanText `json:"content"`
	IsError bool       `json:"isError,omitempty"`
}

type leanText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// GetMeta and SetMeta keep metadata that the SDK sets after the handler
// returns in the JSON, rather than in the replaced result.
func (r *leanTextResult) GetMeta() map[string]any  { return r.Meta }
func (r *leanTextResult) SetMeta(m map[string]any) { r.Meta = m }

// leanResult returns res as a leanTextResult when it is a plain text
// result (every tool's answer: one block of indented JSON, or an error
// text), and res itself otherwise: anything with structured content,
// annotations, non-text blocks or multi-round-trip fields keeps the SDK's
// own encoding.
func leanResult(res sdk.Result) sdk.Result {
	r, ok := res.(*sdk.CallToolResult)
	if !ok || r == nil || r.StructuredContent != nil || r.InputRequests != nil || r.RequestState != "" {
		return res
	}
	out := &leanTextResult{Result: r, Meta: r.Meta, Content: make([]leanText, 0, len(r.Content)), IsError: r.IsError}
	for _, c := range r.Content {
		t, ok := c.(*sdk.TextContent)
		if !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			return res
		}
		out.Content = append(out.Content, leanText{Type: "text", Text: t.Text})
	}
	return out
}

// toolList is a tools/list result in the JSON of the protocol revisions
// this server speaks. The SDK's *ListToolsResult always carries ttlMs and
// cacheScope, fields of a later draft that strict clients of 2025-03-26
// do not expect.
type toolList struct {
	sdk.Result `json:"-"` // the *sdk.ListToolsResult this replaces

	Meta       sdk.Meta    `json:"_meta,omitempty"`
	NextCursor string      `json:"nextCursor,omitempty"`
	Tools      []*sdk.Tool `json:"tools"`
}

func (r *toolList) GetMeta() map[string]any  { return r.Meta }
func (r *toolList) SetMeta(m map[string]any) { r.Meta = m }
