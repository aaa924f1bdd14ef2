package pocketsphinx_test

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
	"github.com/hearth-appliance/hearth/localstt/pocketsphinx"
)

// TestConformance runs the speech routes' suite on the real recognizer:
// Festival speech heard word for word, streaming and batch; silence heard
// as nothing; an unserved language refused. A local engine has no vendor
// to refuse a key or fail on its side.
func TestConformance(t *testing.T) {
	said := "please send a report to my manager tomorrow morning"
	audio := speech(t, said, 16000)
	stttest.Run(t, stttest.Harness{
		New: func(t *testing.T, b stttest.Behaviour) any {
			return route(t, pocketsphinx.Config{})
		},
		Speech: audio,
		Words:  said,
	})
}
