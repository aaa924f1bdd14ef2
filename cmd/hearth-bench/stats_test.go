package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

func ms(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

func seq(n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * time.Millisecond
	}
	return out
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"single p0", ms(7), 0, 7 * time.Millisecond},
		{"single p50", ms(7), 50, 7 * time.Millisecond},
		{"single p100", ms(7), 100, 7 * time.Millisecond},
		{"two p50", ms(1, 9), 50, 1 * time.Millisecond},
		{"two p51", ms(1, 9), 51, 9 * time.Millisecond},
		{"ten p0", seq(10), 0, 1 * time.Millisecond},
		{"ten p10", seq(10), 10, 1 * time.Millisecond},
		{"ten p11", seq(10), 11, 2 * time.Millisecond},
		{"ten p50", seq(10), 50, 5 * time.Millisecond},
		{"ten p90", seq(10), 90, 9 * time.Millisecond},
		{"ten p99", seq(10), 99, 10 * time.Millisecond},
		{"ten max", seq(10), 100, 10 * time.Millisecond},
		{"hundred p50", seq(100), 50, 50 * time.Millisecond},
		{"hundred p90", seq(100), 90, 90 * time.Millisecond},
		{"hundred p95", seq(100), 95, 95 * time.Millisecond},
		{"twenty p95", seq(20), 95, 19 * time.Millisecond},
		{"hundred p99", seq(100), 99, 99 * time.Millisecond},
		{"hundred p99.5", seq(100), 99.5, 100 * time.Millisecond},
		{"thousand p99", seq(1000), 99, 990 * time.Millisecond},
		{"thousand p99.9", seq(1000), 99.9, 999 * time.Millisecond},
		{"outlier", ms(1, 1, 1, 1, 1, 1, 1, 1, 1, 500), 90, 1 * time.Millisecond},
		{"outlier max", ms(1, 1, 1, 1, 1, 1, 1, 1, 1, 500), 100, 500 * time.Millisecond},
		{"over 100 clamps", seq(10), 150, 10 * time.Millisecond},
		{"negative clamps", seq(10), -5, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.sorted), tt.p, got, tt.want)
			}
		})
	}
}

func TestFmtDur(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                        "0.00 ms",
		450 * time.Microsecond:   "0.45 ms",
		12345 * time.Microsecond: "12.3 ms",
		2500 * time.Millisecond:  "2500 ms",
	} {
		if got := fmtDur(d); got != want {
			t.Errorf("fmtDur(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestParseStatusKB(t *testing.T) {
	status := "Name:\thearth\nVmPeak:\t  812344 kB\nVmHWM:\t   40000 kB\nVmRSS:\t   21504 kB\nThreads:\t9\n"
	if got := parseStatusKB(strings.NewReader(status), "VmRSS:"); got != 21504*1024 {
		t.Errorf("VmRSS = %d", got)
	}
	if got := parseStatusKB(strings.NewReader(status), "VmHWM:"); got != 40000*1024 {
		t.Errorf("VmHWM = %d", got)
	}
	if got := parseStatusKB(strings.NewReader("Name: x\n"), "VmRSS:"); got != -1 {
		t.Errorf("missing VmRSS = %d, want -1", got)
	}
	if fmtBytes(-1) != "n/a" || fmtBytes(3<<20) != "3.0 MiB" {
		t.Errorf("fmtBytes: %q %q", fmtBytes(-1), fmtBytes(3<<20))
	}
}

func TestLastLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"abc":                        "abc",
		"created user\nu_123\n":      "u_123",
		"note\r\nhk_dev_xyz\r\n\r\n": "hk_dev_xyz",
		"  spaced  \n\n":             "spaced",
	} {
		if got := lastLine(in); got != want {
			t.Errorf("lastLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	got := commandLine([]string{"/tmp/go-build123/b001/exe/hearth-bench", "-hearth", "bin/hearth", "-out", "my report.md", "-duration=10s"})
	want := "hearth-bench -hearth bin/hearth -out 'my report.md' -duration=10s"
	if got != want {
		t.Errorf("commandLine = %q, want %q", got, want)
	}
	if shellQuote("it's") != `'it'\''s'` {
		t.Errorf("shellQuote(it's) = %s", shellQuote("it's"))
	}
}

func TestParseFlags(t *testing.T) {
	c, err := parseFlags(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.hearth != "bin/hearth" || c.duration != 10*time.Second || c.concurrency != 16 || c.segments != 12 || c.addr != "127.0.0.1:0" || c.out != "" ||
		c.driverProcs != 1 {
		t.Errorf("defaults: %+v", c)
	}
	bad := [][]string{
		{"-addr", "0.0.0.0:8080"},
		{"-addr", "example.com:80"},
		{"-addr", "127.0.0.1"},
		{"-concurrency", "0"},
		{"-duration", "0s"},
		{"-segments", "0"},
		{"-segments", "501"},
		{"-scenarios", "nope"},
		{"-scenarios", "listen"},
		{"-listen-sessions", "-1"},
		{"-listen-sessions", "5", "-listen-mode", "loud"},
		{"-listen-batch", "1ms"},
		{"-upload-mb", "201"},
		{"-driver-procs", "-1"},
		{"extra"},
	}
	for _, args := range bad {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
	c, err = parseFlags([]string{"-scenarios", "get, from-segments", "-addr", "127.0.0.1:18080"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := selectScenarios(c.scenarios)
	if len(sc) != 2 || sc[0].name != "from-segments" || sc[1].name != "get" {
		t.Errorf("selectScenarios order: %v", sc)
	}
}

func TestResolveAddr(t *testing.T) {
	a, err := resolveAddr("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "127.0.0.1:") || strings.HasSuffix(a, ":0") {
		t.Errorf("resolveAddr = %q", a)
	}
	if a, _ := resolveAddr("127.0.0.1:9999"); a != "127.0.0.1:9999" {
		t.Errorf("fixed port changed: %q", a)
	}
}
