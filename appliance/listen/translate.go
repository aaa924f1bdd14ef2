package listen

import (
	"context"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Translator renders text in another language (the pipeline's LLM route).
type Translator interface {
	Translate(ctx context.Context, text, targetLang string) (string, error)
}

// Translation configures live translation of segments.
type Translation struct {
	// To is the language segments are translated into; empty turns
	// translation off.
	To string
	// Event is the event type translations are sent as: "translating",
	// which the Omi app parses (the default), or "translation", the
	// contract's name.
	Event string
}

// Event types for translations.
const (
	TranslatingEvent = "translating"
	TranslationEvent = "translation"
)

const (
	translateQueue   = 32 // flushes waiting for translation; more are dropped, counted
	translateTimeout = 30 * time.Second
)

type translateJob struct {
	convID string
	segs   []appliance.TranscriptSegment
}

// translates reports whether this session's segments are translated: a
// translator is configured and the session speaks another language (or
// several: "multi" is translated, and text already in the target language
// comes back unchanged and is not sent).
func (s *session) translates() bool {
	t := s.srv.d.Translation
	if s.srv.d.Translator == nil || t.To == "" {
		return false
	}
	return !strings.EqualFold(baseLanguage(s.p.Language), baseLanguage(t.To))
}

func baseLanguage(l string) string {
	l, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(l)), "-")
	return l
}

// queueTranslation hands sent segments to the translator goroutine; a
// session whose translations fall behind drops the excess rather than
// holding memory.
func (s *session) queueTranslation(convID string, segs []appliance.TranscriptSegment) {
	if s.trq == nil || len(segs) == 0 {
		return
	}
	select {
	case s.trq <- translateJob{convID: convID, segs: segs}:
	default:
		s.untranslated.Add(int64(len(segs)))
	}
}

// translate runs the session's translations one flush at a time, stores
// them on the segments and sends them to the client.
func (s *session) translate(ctx context.Context) {
	to := s.srv.d.Translation.To
	for {
		select {
		case <-s.sock.done:
			return
		case <-ctx.Done():
			return
		case job := <-s.trq:
			stored := map[string][]appliance.Translation{}
			var sent []appliance.TranscriptSegment
			for _, seg := range job.segs {
				tctx, cancel := context.WithTimeout(ctx, translateTimeout)
				text, err := s.srv.d.Translator.Translate(tctx, seg.Text, to)
				cancel()
				if err != nil {
					s.untranslated.Add(1)
					s.srv.d.Logger.Warn("translate a segment", "user", s.user, "err", err)
					continue
				}
				text = strings.TrimSpace(text)
				if text == "" || strings.EqualFold(text, strings.TrimSpace(seg.Text)) {
					continue // already in the target language
				}
				seg.Translations = []appliance.Translation{{Lang: to, Text: text}}
				stored[seg.ID] = seg.Translations
				sent = append(sent, seg)
			}
			if len(sent) == 0 {
				continue
			}
			if err := s.srv.d.Conversations.SetTranslations(ctx, s.user, job.convID, stored); err != nil {
				s.srv.d.Logger.Warn("store translations", "user", s.user, "conversation_id", job.convID, "err", err)
			}
			s.send(translationEvent(s.srv.d.Translation.Event, sent))
		}
	}
}

// translating carries the whole translated segments (what the Omi app
// reads, "translating").
type translating struct {
	Type     string                        `json:"type"`
	Segments []appliance.TranscriptSegment `json:"segments"`
}

// translation carries each segment's id and its translations only (the
// contract's "translation").
type translation struct {
	Type     string              `json:"type"`
	Segments []translatedSegment `json:"segments"`
}

type translatedSegment struct {
	ID           string                  `json:"id"`
	Translations []appliance.Translation `json:"translations"`
}

// translationEvent shapes translated segments as the configured event.
func translationEvent(kind string, segs []appliance.TranscriptSegment) any {
	if kind == TranslationEvent {
		out := make([]translatedSegment, len(segs))
		for i, s := range segs {
			out[i] = translatedSegment{ID: s.ID, Translations: s.Translations}
		}
		return translation{Type: TranslationEvent, Segments: out}
	}
	return translating{Type: TranslatingEvent, Segments: segs}
}
