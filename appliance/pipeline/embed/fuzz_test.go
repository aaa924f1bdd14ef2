package embed

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// FuzzEmbed checks that any string embeds without panicking into a finite
// unit vector of the right length, the same one each time.
func FuzzEmbed(f *testing.F) {
	for _, s := range unitTexts {
		f.Add(s)
	}
	for _, s := range memories {
		f.Add(s)
	}
	f.Add(sentence40)
	f.Add("I'll ' '' ’t n't 't' ’’’")
	f.Add(strings.Repeat("ー", 50) + strings.Repeat("プ", 40))
	f.Add("\u0301\u0301 \U0001F468\u200D\U0001F469\u200D\U0001F467")
	f.Add("ǅemal İstanbul ΣΊΣΥΦΟΣ")
	b := NewBuiltin(0)
	small := NewBuiltin(3)
	f.Fuzz(func(t *testing.T, text string) {
		vs, err := b.Embed(context.Background(), []string{text, text})
		if err != nil {
			t.Fatal(err)
		}
		checkUnit(t, vs[0], DefaultDims)
		if !slices.Equal(vs[0], vs[1]) {
			t.Fatal("two embeddings of one text differ")
		}
		vs, err = small.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		checkUnit(t, vs[0], 3)
	})
}
