package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The MCP scenarios speak raw JSON-RPC over the streamable HTTP transport,
// as an assistant's client does: each worker opens one session (initialize,
// then notifications/initialized) and calls tools in it.

const mcpPath = "/v1/mcp/sse"

func needsMemories(scens []scenario) bool {
	for _, s := range scens {
		if strings.HasPrefix(s.name, "mcp-") {
			return true
		}
	}
	return false
}

// mcpPost sends one JSON-RPC message with the worker's MCP key and session,
// records its latency, and returns the response and its session header.
func (w *worker) mcpPost(ctx context.Context, msg any) (response, string, error) {
	body, err := json.Marshal(msg)
	if err != nil {
		return response{}, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.baseURL+mcpPath, bytes.NewReader(body))
	if err != nil {
		return response{}, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+w.mcpKey)
	req.Header.Set("MCP-Protocol-Version", "2025-03-26")
	if w.mcpSession != "" {
		req.Header.Set("Mcp-Session-Id", w.mcpSession)
	}
	t0 := time.Now()
	resp, err := w.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			w.requests++
		}
		return response{}, "", err
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	resp.Body.Close()
	if err != nil {
		w.requests++
		return response{}, "", err
	}
	w.latencies = append(w.latencies, time.Since(t0))
	w.requests++
	return response{status: resp.StatusCode, body: b}, resp.Header.Get("Mcp-Session-Id"), nil
}

// jsonrpcResult extracts the result of a JSON or single-event SSE reply.
func jsonrpcResult(body []byte) (json.RawMessage, error) {
	if i := bytes.Index(body, []byte("data: ")); i >= 0 && body[0] != '{' {
		body = body[i+len("data: "):]
		if j := bytes.IndexByte(body, '\n'); j >= 0 {
			body = body[:j]
		}
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("decode JSON-RPC reply %q: %w", truncate(string(body), 200), err)
	}
	if r.Error != nil {
		return nil, fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	}
	return r.Result, nil
}

func (w *worker) ensureMCPSession(ctx context.Context) error {
	if w.mcpSession != "" {
		return nil
	}
	resp, sid, err := w.mcpPost(ctx, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-03-26", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "hearth-bench", "version": "1"}}})
	if err != nil {
		return err
	}
	if err := expect("POST", mcpPath+" initialize", resp, http.StatusOK); err != nil {
		return err
	}
	if sid == "" {
		return fmt.Errorf("initialize returned no Mcp-Session-Id")
	}
	w.mcpSession = sid
	resp, _, err = w.mcpPost(ctx, map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	if err != nil {
		return err
	}
	return expect("POST", mcpPath+" notifications/initialized", resp, http.StatusAccepted)
}

func (w *worker) callTool(ctx context.Context, name string, args map[string]any) error {
	if err := w.ensureMCPSession(ctx); err != nil {
		return err
	}
	resp, _, err := w.mcpPost(ctx, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}})
	if err != nil {
		return err
	}
	if err := expect("POST", mcpPath+" "+name, resp, http.StatusOK); err != nil {
		return err
	}
	result, err := jsonrpcResult(resp.body)
	if err != nil {
		return err
	}
	if bytes.Contains(result, []byte(`"isError":true`)) {
		return fmt.Errorf("%s: tool error: %s", name, truncate(string(result), 300))
	}
	return nil
}

func runMCPSearchMemories(ctx context.Context, w *worker) error {
	words := strings.Fields(memoryTopics[w.rng.IntN(len(memoryTopics))])
	return w.callTool(ctx, "search_memories", map[string]any{"query": words[w.rng.IntN(len(words))] + " " + words[0], "limit": 10})
}

func runMCPGetConversations(ctx context.Context, w *worker) error {
	return w.callTool(ctx, "get_conversations", map[string]any{"limit": 20})
}

// memoryTopics seed the memories (and the search queries) with varied,
// realistic facts.
var memoryTopics = []string{
	"dentist appointment cleaning", "passport renewal office", "garden tomato seedlings", "piano lesson practice",
	"budget spreadsheet savings", "marathon training schedule", "daughter school pickup", "coffee oat milk preference",
	"allergy peanuts restaurant", "flight booking lisbon conference", "hiking trail weekend", "birthday gift sister",
	"car insurance renewal", "yoga class tuesday", "book club novel", "bike repair shop", "camera lens photography",
	"recipe pasta sauce", "doctor blood pressure", "neighbour spare key",
}

// seedMemories creates n memories through the batch API, 25 per request,
// with four requests in flight.
func seedMemories(ctx context.Context, client *http.Client, base, key string, n int) error {
	const batch, parallel = 25, 4
	jobs := make(chan int)
	errs := make(chan error, parallel)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			w := &worker{client: client, baseURL: base, key: key}
			for start := range jobs {
				items := make([]map[string]string, 0, batch)
				for i := start; i < min(start+batch, n); i++ {
					t := memoryTopics[i%len(memoryTopics)]
					items = append(items, map[string]string{"content": fmt.Sprintf("Note %d about %s and what was decided", i, t)})
				}
				body, _ := json.Marshal(map[string]any{"memories": items})
				resp, err := w.do(ctx, http.MethodPost, "/v1/dev/user/memories/batch", body)
				if err == nil {
					err = expect("POST", "/v1/dev/user/memories/batch", resp, http.StatusOK)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for start := 0; start < n; start += batch {
		select {
		case jobs <- start:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}
