package web_test

import (
	"fmt"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/web"
)

// TestConsoleContrast holds the console's colour tokens to WCAG AA: text
// at 4.5:1 on every surface it is drawn on, in the light and the dark
// theme (the same tokens the pages use, read from console.css).
func TestConsoleContrast(t *testing.T) {
	t.Parallel()
	b, err := fs.ReadFile(web.FS(), "console/console.css")
	if err != nil {
		t.Fatal(err)
	}
	css := string(b)
	themes := map[string]map[string]string{
		"light": tokens(t, css[strings.Index(css, ":root {"):]),
		"dark":  tokens(t, css[strings.Index(css, `:root[data-theme="dark"] {`):]),
	}
	pairs := [][2]string{
		{"text", "bg"}, {"text", "panel"}, {"text", "panel-2"}, {"muted", "bg"}, {"muted", "panel"}, {"muted", "panel-2"},
		{"accent", "panel"}, {"accent", "bg"}, {"accent", "accent-soft"}, {"accent-text", "accent"},
		{"ok", "ok-soft"}, {"warn", "warn-soft"}, {"danger", "danger-soft"}, {"danger", "panel"},
	}
	for name, tok := range themes {
		for _, p := range pairs {
			fg, bg := tok[p[0]], tok[p[1]]
			if fg == "" || bg == "" {
				t.Fatalf("%s theme lacks --%s or --%s", name, p[0], p[1])
			}
			if r := contrast(t, fg, bg); r < 4.5 {
				t.Errorf("%s theme: --%s (%s) on --%s (%s) is %.2f:1, under 4.5:1", name, p[0], fg, p[1], bg, r)
			}
		}
	}
}

// tokens reads the custom properties of the first rule in css.
func tokens(t *testing.T, css string) map[string]string {
	rule := css[:strings.Index(css, "}")]
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})`).FindAllStringSubmatch(rule, -1) {
		out[m[1]] = m[2]
	}
	if len(out) < 10 {
		t.Fatalf("only %d colour tokens in %.60q", len(out), rule)
	}
	return out
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(t *testing.T, hex string) float64 {
	var rgb [3]float64
	for i := range rgb {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatal(fmt.Errorf("colour %s: %w", hex, err))
		}
		c := float64(v) / 255
		if c <= 0.03928 {
			rgb[i] = c / 12.92
		} else {
			rgb[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
}
