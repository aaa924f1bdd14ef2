package builtin

import "testing"

func TestQuickEnglishAgreesWithAnalyze(t *testing.T) {
	t.Parallel()
	texts := []string{"", "okay", "I need to call the dentist tomorrow", "Mañana tenemos la reunión con el equipo",
		"我们明天要开会讨论项目预算。", "Ich muss morgen den Zahnarzt anrufen und den Termin verschieben.",
		"Le rapport est pour vendredi et je dois le finir", "API API NASA iPhone"}
	for _, s := range samples {
		texts = append(texts, s.segments...)
	}
	for _, text := range texts {
		for _, lang := range []string{"", "en", "es", "zh"} {
			d := parseSegments(segments(text))
			if got, want := quickEnglish(d, lang), analyze(parseSegments(segments(text)), lang).english; got != want {
				t.Errorf("quickEnglish(%.30q, %q) = %v, analyze says %v", text, lang, got, want)
			}
		}
	}
}
