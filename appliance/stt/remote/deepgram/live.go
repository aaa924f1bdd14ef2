package deepgram

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/stt/remote/internal/wsstream"
)

// Open implements stt.StreamingProvider: a live /v1/listen socket.
func (r *Route) Open(ctx context.Context, cfg stt.Config) (stt.Stream, error) {
	if !r.Supports(cfg.Language, max(cfg.Channels, 1)) {
		return nil, &stt.Error{Outcome: stt.ConfigError, Provider: Name, Reason: "unsupported_language", Err: stt.ErrNoRoute}
	}
	u := strings.Replace(strings.Replace(r.cfg.BaseURL, "https://", "wss://", 1), "http://", "ws://", 1) +
		"/v1/listen?" + query(cfg.Language, cfg.Diarize, true).Encode()
	dialer := websocket.Dialer{HandshakeTimeout: 15 * time.Second}
	conn, resp, err := dialer.DialContext(ctx, u, http.Header{"Authorization": {"Token " + r.cfg.APIKey}})
	if err != nil {
		if resp != nil {
			return nil, statusError(resp.StatusCode)
		}
		return nil, transportError(ctx, err)
	}
	// CloseStream makes Deepgram finalise what it holds and close the socket.
	return wsstream.Start(conn, wsstream.Options{Provider: Name, Read: read,
		End: func(conn *websocket.Conn, _ int) error {
			return conn.WriteMessage(websocket.TextMessage, []byte(`{"type":"CloseStream"}`))
		},
		KeepAlive: []byte(`{"type":"KeepAlive"}`), KeepAliveEvery: r.cfg.KeepAlive}), nil
}

// result is the part of Deepgram's messages the route reads.
type result struct {
	Type    string `json:"type"`
	IsFinal bool   `json:"is_final"`
	Channel struct {
		Alternatives []struct {
			Words []dgWord `json:"words"`
		} `json:"alternatives"`
	} `json:"channel"`
	Description string `json:"description"`
}

// read delivers final results until the socket ends; an end the route did
// not ask for is a failure.
func read(conn *websocket.Conn, s *wsstream.Stream) {
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			expected := s.Closing()
			var ce *websocket.CloseError
			if errors.As(err, &ce) && ce.Code == websocket.CloseNormalClosure && expected {
				return
			}
			switch {
			case errors.As(err, &ce) && ce.Code == websocket.ClosePolicyViolation:
				// Deepgram closes 1008 (DATA-0000) when it cannot decode the audio.
				s.Fail(&stt.Error{Outcome: stt.InvalidInput, Provider: Name, Reason: "audio_rejected", Err: err})
			case !expected:
				s.Fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "connection_lost", Err: err})
			}
			return
		}
		var m result
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch m.Type {
		case "Results":
			if !m.IsFinal || len(m.Channel.Alternatives) == 0 {
				continue
			}
			var ws []stt.Word
			for _, w := range m.Channel.Alternatives[0].Words {
				ws = append(ws, w.word())
			}
			if len(ws) > 0 {
				s.Emit(ws)
			}
		case "Error":
			s.Fail(&stt.Error{Outcome: stt.UpstreamError, Provider: Name, Reason: "upstream_error", Err: errors.New("deepgram: " + m.Description)})
		}
	}
}
