package localstt_test

import (
	"testing"

	"github.com/hearth-appliance/hearth/appliance/stt/stttest"
)

// TestConformance runs the speech routes' suite on whisper.cpp with a real
// model (HEARTH_TEST_WHISPER_MODEL): a generated random-weight model hears
// nothing in particular, so hearing cannot be checked without one.
func TestConformance(t *testing.T) {
	r := realModel(t)
	said := "please send a report to my manager tomorrow morning"
	audio := festival(t, said)
	stttest.Run(t, stttest.Harness{
		New:    func(t *testing.T, b stttest.Behaviour) any { return r },
		Speech: append(append(make([]int16, 8000), audio...), make([]int16, 16000)...),
		Words:  said,
		MaxWER: 0.2,
	})
}
