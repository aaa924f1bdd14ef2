package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/records"
)

// JSON-RPC error codes of the reference's MCP server.
const (
	CodeInvalidParams     = jsonrpc.CodeInvalidParams  // -32602
	CodeMethodNotFound    = jsonrpc.CodeMethodNotFound // -32601
	CodeNotFound          = -32001
	CodeLocked            = -32002
	CodeInsufficientScope = -32003
	CodeGeneric           = -32000
)

// OAuth scope names of the tools, the reference's. API keys carry the colon
// spelling (memories:read); both are accepted.
const (
	ScopeMemoriesRead      = "memories.read"
	ScopeMemoriesWrite     = "memories.write"
	ScopeConversationsRead = "conversations.read"
	ScopeActionItemsRead   = "action_items.read"
	ScopeActionItemsWrite  = "action_items.write"
	ScopePeopleRead        = "people.read"
)

// HasScope reports whether granted allows scope, in either spelling. API
// keys have no people scope, so for them conversations:read, which
// exposes the same speakers' names, stands in for people.read.
func HasScope(granted []string, scope string) bool {
	colon := strings.Replace(scope, ".", ":", 1)
	if slices.Contains(granted, scope) || slices.Contains(granted, colon) {
		return true
	}
	return scope == ScopePeopleRead && slices.Contains(granted, appliance.ScopeConversationsRead)
}

// rpcError returns a JSON-RPC error. It must reach the SDK unwrapped: only
// a bare *jsonrpc.Error becomes an error response rather than an isError
// result.
func rpcError(code int, msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: int64(code), Message: msg}
}

// toolKind decides a tool's annotations.
type toolKind int

const (
	kindRead toolKind = iota
	kindWrite
	kindDelete
)

// call is what a tool handler gets besides its arguments.
type call struct {
	deps   *Deps
	userID string
	req    *sdk.CallToolRequest
}

// serverTool is one tool, its required scope and its handler, built by one
// constructor per tool (tools_*.go) and registered by registerTools.
type serverTool struct {
	tool    *sdk.Tool
	scope   string
	handler sdk.ToolHandler
}

// allTools lists the tools in the reference's order.
func allTools(d *Deps) []serverTool {
	return []serverTool{
		getUserProfileTool(d),
		getMemoriesTool(d),
		createMemoryTool(d),
		deleteMemoryTool(d),
		editMemoryTool(d),
		searchMemoriesTool(d),
		getConversationsTool(d),
		getConversationByIDTool(d),
		searchConversationsTool(d),
		getActionItemsTool(d),
		searchActionItemsTool(d),
		createActionItemTool(d),
		completeActionItemTool(d),
		updateActionItemTool(d),
		deleteActionItemTool(d),
		getPeopleTool(d),
	}
}

// registerTools adds every tool to s, and the middleware that answers
// unknown tools as the reference does, encodes text results lean (see
// leanTextResult) and filters tools/list by scope. It returns the tools'
// names.
func registerTools(s *sdk.Server, d *Deps) map[string]bool {
	tools := allTools(d)
	scopes := map[string]string{}
	names := map[string]bool{}
	for _, t := range tools {
		s.AddTool(t.tool, t.handler)
		scopes[t.tool.Name] = t.scope
		names[t.tool.Name] = true
	}
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch method {
			case "tools/call":
				name := ""
				if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && p != nil {
					name = p.Name
				}
				if name == "" {
					return nil, rpcError(CodeInvalidParams, "Tool name is required")
				}
				if _, ok := scopes[name]; !ok {
					return nil, rpcError(CodeMethodNotFound, "Unknown tool: "+name)
				}
				res, err := next(ctx, method, req)
				if err != nil {
					return res, err
				}
				return leanResult(res), nil
			case "tools/list":
				// The newest reference lists only the tools the grant allows.
				res, err := next(ctx, method, req)
				if lr, ok := res.(*sdk.ListToolsResult); ok && err == nil {
					granted := grantedScopes(req.GetExtra())
					return &toolList{Result: lr, Meta: lr.Meta, NextCursor: lr.NextCursor,
						Tools: slices.DeleteFunc(slices.Clone(lr.Tools), func(t *sdk.Tool) bool {
							return !HasScope(granted, scopes[t.Name])
						})}, nil
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	})
	return names
}

func grantedScopes(extra *sdk.RequestExtra) []string {
	if extra == nil || extra.TokenInfo == nil {
		return nil
	}
	return extra.TokenInfo.Scopes
}

// newTool builds a tool whose arguments are In. The input schema comes from
// In's fields: the json name, the `jsonschema` tag (description) and the
// `schema` tag, a comma list of default=V, minimum=N, maximum=N,
// maxLength=N (maxLength=text is records.MaxText), enum=a|b|c (for a list:
// of its items) and dropinvalid (a list's values outside the enum are
// silently removed, not refused).
//
// A call is handled in this order: scope (-32003); arguments parsed, nulls
// treated as absent, defaults applied (-32602 when they do not fit In);
// In's check method, which gives the reference's own messages and codes;
// the schema's bounds and enums with readable messages (-32602); the full
// schema as a backstop (-32602); then run. Errors from run are mapped by
// toRPCError.
func newTool[In any](d *Deps, name, title, description, scope string, kind toolKind,
	run func(ctx context.Context, c *call, in In) (any, error)) serverTool {
	schema, rules := inputSchema[In]()
	resolved, err := schema.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: tool %s: resolve schema: %v", name, err))
	}
	no, yes := false, true
	ann := &sdk.ToolAnnotations{Title: title, OpenWorldHint: &no}
	switch kind {
	case kindRead:
		ann.ReadOnlyHint = true
	case kindWrite:
		ann.DestructiveHint = &no
	case kindDelete:
		ann.DestructiveHint = &yes
		ann.IdempotentHint = true
	}
	tool := &sdk.Tool{
		Name: name, Title: title, Description: description, InputSchema: schema, Annotations: ann,
		// ChatGPT's connector reads the scopes a tool needs from here.
		Meta: sdk.Meta{"securitySchemes": []map[string]any{{"type": "oauth2", "scopes": []string{scope}}}},
	}
	h := func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		ti := (*auth.TokenInfo)(nil)
		if req.Extra != nil {
			ti = req.Extra.TokenInfo
		}
		if ti == nil || ti.UserID == "" {
			// The HTTP layer authenticates every request; this is a bug.
			d.Logger.Error("mcp: tool call without a user", "tool", name)
			return nil, rpcError(jsonrpc.CodeInternalError, msgInternal)
		}
		if !HasScope(ti.Scopes, scope) {
			return nil, scopeError(req, scope)
		}
		in, rerr := decodeArgs[In](req.Params.Arguments, rules, resolved)
		if rerr != nil {
			return nil, rerr
		}
		c := &call{deps: d, userID: ti.UserID, req: req}
		out, err := run(ctx, c, in)
		if err != nil {
			return nil, toRPCError(d, name, err)
		}
		return textResult(out)
	}
	return serverTool{tool: tool, scope: scope, handler: h}
}

// checker is implemented by argument structs with rules beyond the schema.
type checker interface{ check() error }

func decodeArgs[In any](raw json.RawMessage, rules []fieldRule, resolved *jsonschema.Resolved) (In, *jsonrpc.Error) {
	var in In
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, rpcError(CodeInvalidParams, "Invalid arguments: expected an object")
		}
	}
	// A null argument means "not given", as Python's None does.
	for k, v := range args {
		if v == nil {
			delete(args, k)
		}
	}
	var anyArgs any = args
	if err := resolved.ApplyDefaults(&anyArgs); err != nil {
		return in, rpcError(CodeInvalidParams, "Invalid arguments: "+err.Error())
	}
	for _, r := range rules {
		if r.dropInvalid {
			if list, ok := args[r.name].([]any); ok {
				args[r.name] = slices.DeleteFunc(list, func(v any) bool { return !slices.Contains(r.enum, v) })
			}
		}
	}
	b, _ := json.Marshal(args)
	if err := json.Unmarshal(b, &in); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return in, rpcError(CodeInvalidParams, fmt.Sprintf("Invalid value for %s: expected %s", te.Field, jsonKind(te.Type)))
		}
		return in, rpcError(CodeInvalidParams, "Invalid arguments: "+err.Error())
	}
	if c, ok := any(&in).(checker); ok {
		if err := c.check(); err != nil {
			var je *jsonrpc.Error
			if errors.As(err, &je) {
				return in, je
			}
			return in, rpcError(CodeInvalidParams, err.Error())
		}
	}
	for _, r := range rules {
		if msg := r.violation(args[r.name]); msg != "" {
			return in, rpcError(CodeInvalidParams, msg)
		}
	}
	if err := resolved.Validate(&anyArgs); err != nil {
		return in, rpcError(CodeInvalidParams, "Invalid arguments: "+err.Error())
	}
	return in, nil
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	}
	return t.String()
}

// scopeError is -32003 with the Bearer challenge the reference puts in
// error.data._meta["mcp/www_authenticate"], so a connector can ask for more.
func scopeError(req *sdk.CallToolRequest, scope string) *jsonrpc.Error {
	challenge := `Bearer error="insufficient_scope", scope="` + scope + `"`
	if req.Extra != nil && req.Extra.Header != nil {
		if u := req.Extra.Header.Get(challengeURLHeader); u != "" {
			challenge += `, resource_metadata="` + u + `"`
		}
	}
	challenge += `, error_description="Insufficient scope: ` + scope + `"`
	data, _ := json.Marshal(map[string]any{"_meta": map[string]any{"mcp/www_authenticate": challenge}})
	e := rpcError(CodeInsufficientScope, "Insufficient scope: "+scope)
	e.Data = data
	return e
}

// toRPCError maps a tool's error to the reference's codes. Application
// errors keep their client-safe message; anything else is logged and shown
// as an internal error.
func toRPCError(d *Deps, tool string, err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	switch appliance.ErrorCode(err) {
	case appliance.EINVALID:
		return rpcError(CodeInvalidParams, appliance.ErrorMessage(err))
	case appliance.ENOTFOUND:
		return rpcError(CodeNotFound, appliance.ErrorMessage(err))
	case appliance.ELOCKED:
		return rpcError(CodeLocked, appliance.ErrorMessage(err))
	case appliance.EFORBIDDEN:
		return rpcError(CodeInsufficientScope, appliance.ErrorMessage(err))
	}
	d.Logger.Error("mcp: tool failed", "tool", tool, "err", err)
	return rpcError(jsonrpc.CodeInternalError, msgInternal)
}

// textResult is the reference's result: the JSON of out, indented by two
// spaces, as one text block, and nothing else. (A copy as structured
// content, which the reference does not send and no tool's output schema
// asks for, doubled what the SDK encodes and re-compacts for every call.)
func textResult(out any) (*sdk.CallToolResult, error) {
	text, err := prettyJSON(out)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
}

func prettyJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // assistants read this text; keep <, > and & legible
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// fieldRule is what the `schema` tag says about one argument, for readable
// messages before the schema's own validation.
type fieldRule struct {
	name        string
	min, max    *float64
	maxLen      int
	enum        []any
	list        bool
	dropInvalid bool
}

func (r fieldRule) violation(v any) string {
	if v == nil {
		return ""
	}
	if n, ok := v.(float64); ok {
		if (r.min != nil && n < *r.min) || (r.max != nil && n > *r.max) {
			switch {
			case r.min != nil && r.max != nil:
				return fmt.Sprintf("%s must be between %s and %s", r.name, fmtNum(*r.min), fmtNum(*r.max))
			case r.min != nil:
				return fmt.Sprintf("%s must be at least %s", r.name, fmtNum(*r.min))
			default:
				return fmt.Sprintf("%s must be at most %s", r.name, fmtNum(*r.max))
			}
		}
	}
	if s, ok := v.(string); ok && r.maxLen > 0 && len([]rune(s)) > r.maxLen {
		return fmt.Sprintf("%s must be at most %d characters", r.name, r.maxLen)
	}
	if len(r.enum) > 0 {
		values := []any{v}
		if r.list {
			values, _ = v.([]any)
		}
		for _, x := range values {
			if !slices.Contains(r.enum, x) {
				return fmt.Sprintf("Invalid %s: %s. Expected one of: %s.", r.name, fmtAny(x), joinAny(r.enum))
			}
		}
	}
	return ""
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func fmtAny(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func joinAny(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// inputSchema infers In's schema and applies its `schema` tags.
func inputSchema[In any]() (*jsonschema.Schema, []fieldRule) {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %T: %v", *new(In), err))
	}
	// Unknown arguments are ignored, as the reference (pydantic) does,
	// rather than refused: assistants add stray ones.
	s.AdditionalProperties = nil
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	var rules []fieldRule
	t := reflect.TypeFor[In]()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		ps := s.Properties[name]
		if ps == nil {
			continue
		}
		// Optional arguments are pointers so that "not given" is visible;
		// null is treated as not given, so the schema need not allow it.
		if len(ps.Types) == 2 && ps.Types[0] == "null" {
			ps.Type, ps.Types = ps.Types[1], nil
		}
		tag, ok := f.Tag.Lookup("schema")
		if !ok {
			continue
		}
		r := fieldRule{name: name, list: ps.Type == "array"}
		target := ps
		if r.list {
			target = ps.Items
		}
		for _, opt := range strings.Split(tag, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(opt), "=")
			switch k {
			case "default":
				ps.Default = defaultJSON(ps.Type, v)
			case "minimum":
				n := mustFloat(v)
				ps.Minimum, r.min = &n, &n
			case "maximum":
				n := mustFloat(v)
				ps.Maximum, r.max = &n, &n
			case "maxLength":
				n := records.MaxText // "text": the records' bound, in one place
				if v != "text" {
					n = int(mustFloat(v))
				}
				ps.MaxLength, r.maxLen = &n, n
			case "enum":
				for _, e := range strings.Split(v, "|") {
					r.enum = append(r.enum, e)
				}
				target.Enum = r.enum
			case "dropinvalid":
				r.dropInvalid = true
			default:
				panic(fmt.Sprintf("mcp: %T.%s: unknown schema option %q", *new(In), f.Name, k))
			}
		}
		rules = append(rules, r)
	}
	return s, rules
}

func defaultJSON(typ, v string) json.RawMessage {
	if typ == "string" {
		b, _ := json.Marshal(v)
		return b
	}
	if !json.Valid([]byte(v)) {
		panic(fmt.Sprintf("mcp: bad default %q", v))
	}
	return json.RawMessage(v)
}

func mustFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Sprintf("mcp: bad number %q in schema tag", s))
	}
	return f
}
