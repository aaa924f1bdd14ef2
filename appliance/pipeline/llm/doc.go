// Package llm is Hearth's OpenAI-compatible route: structure, discard
// decisions, memories and translation through a chat completions server
// that honours JSON schema response formats (Ollama, llama.cpp server, vLLM,
// OpenAI), and embeddings through an /embeddings endpoint.
//
// Wire conventions, shared by Client and Embedder:
//
//   - BaseURL includes the API version prefix, exactly as the servers
//     document it: http://127.0.0.1:11434/v1 (Ollama),
//     http://127.0.0.1:8080/v1 (llama.cpp), https://api.openai.com/v1. The
//     client appends /chat/completions or /embeddings; a trailing slash is
//     ignored. Nothing is guessed: a BaseURL without /v1 is used as given,
//     which is right for proxies that mount the API elsewhere.
//   - Authorization: Bearer KEY is sent only when a key is configured, so a
//     local server never sees an empty or placeholder credential.
//   - Every attempt has its own timeout. 408, 429, 5xx (but 501), timeouts
//     and connection errors are retried with exponential backoff and jitter;
//     a Retry-After header replaces the backoff. A malformed reply (not JSON,
//     or not matching the schema) is retried once. Other 4xx are final.
//   - Reply bodies are capped at 4 MB.
//   - Logs carry only model, status, attempt, duration and error text; never
//     the key, the prompts or the transcript. Error texts are built so they
//     carry none of these either (status codes, the server's error type and
//     code, JSON paths; never the server's message or the model's content,
//     which may echo the transcript).
//
// The Extractor falls back to another appliance.Extractor (the built-in
// route) whenever the model fails, so a conversation is never lost to an
// unreachable or confused server.
package llm
