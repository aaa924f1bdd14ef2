package transcribe_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
	"github.com/hearth-appliance/hearth/localstt"
)

// TestAnUnusableRouteIsPassedOver: a route that says it cannot serve
// (whisper without a model) is not tried, and nothing is logged for it; a
// job that no other route serves gets its reason.
func TestAnUnusableRouteIsPassedOver(t *testing.T) {
	t.Parallel()
	missing := localstt.Missing{Reason: "no whisper model: hearth models pull base.en"}
	var log bytes.Buffer
	svc := transcribe.New(slog.New(slog.NewTextHandler(&log, nil)), missing, script(""))
	res, err := svc.Transcribe(context.Background(), recording(0.5, 1.5, 1, 1, 0.5), transcribe.Options{})
	if err != nil || res.Provider != "scripted-" || log.Len() != 0 {
		t.Fatalf("%+v %v; log %q", res, err, log.String())
	}

	alone := transcribe.New(nil, missing)
	if !alone.Serves("en") {
		t.Fatal("a job for the unusable route alone is refused before it can say why")
	}
	// Clients offered languages (Home Assistant) see only what a usable
	// route hears.
	if alone.Hears("en") || !svc.Hears("en") {
		t.Fatalf("Hears: alone %v, with a usable route %v", alone.Hears("en"), svc.Hears("en"))
	}
	_, err = alone.Transcribe(context.Background(), recording(0.5, 1.5, 0.5), transcribe.Options{})
	var e *stt.Error
	if !errors.As(err, &e) || e.Outcome != stt.ConfigError || e.Reason != missing.Reason || errors.Is(err, stt.ErrNoRoute) {
		t.Fatalf("alone: %v", err)
	}
}
