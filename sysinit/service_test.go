package sysinit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"text/template"
	"time"

	"github.com/kardianos/service"
)

// kardianosFuncs mirrors the pipeline functions kardianos v1.3.0 gives
// templates on Linux (tfs in service_linux.go: cmd = cmdQuote, cmdEscape).
var kardianosFuncs = map[string]func(string) string{
	"cmd":       func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` },
	"cmdEscape": func(s string) string { return strings.ReplaceAll(s, " ", `\x20`) },
}

// systemdData mirrors the data map (*systemd).Install builds in kardianos
// v1.3.0 (service_systemd_linux.go) from c, the resolved executable path and
// the options. Every value is a string or a []string, as there.
func systemdData(c *service.Config, path string) map[string]any {
	str := func(key, def string) string {
		if v, ok := c.Option[key].(string); ok {
			return v
		}
		return def
	}
	outputFileSupport := ""
	if v, ok := c.Option["LogOutput"].(bool); ok && v {
		outputFileSupport = "yes" // systemd >= 236, which every current distro has
	}
	limitNOFILE := ""
	if v, ok := c.Option["LimitNOFILE"].(int); ok && v > -1 {
		limitNOFILE = strconv.Itoa(v)
	}
	var env []string
	for k, v := range c.EnvVars {
		env = append(env, "Environment="+k+"="+v)
	}
	return map[string]any{
		"Description":       c.Description,
		"Path":              path,
		"Name":              c.Name,
		"Dependencies":      c.Dependencies,
		"Arguments":         c.Arguments,
		"ChRoot":            c.ChRoot,
		"WorkingDirectory":  c.WorkingDirectory,
		"UserName":          c.UserName,
		"ReloadSignal":      str("ReloadSignal", ""),
		"PIDFile":           str("PIDFile", ""),
		"LogDirectory":      str("LogDirectory", "/var/log"),
		"OutputFileSupport": outputFileSupport,
		"LimitNOFILE":       limitNOFILE,
		"Restart":           str("Restart", "always"),
		"SuccessExitStatus": str("SuccessExitStatus", ""),
		"EnvVars":           env,
	}
}

// actionRE finds template actions the way kardianos's parser does: from
// "{{" to the next "}}".
var actionRE = regexp.MustCompile(`\{\{(.*?)\}\}`)

// checkKardianosGrammar enforces the subset kardianos v1.3.0's engine
// accepts (template.go: parseNodes/execNodes), which is much smaller than
// text/template's: {{Key}}, {{Key | fn | fn}}, {{.}} inside range,
// {{if Key}}/{{else}}/{{end}}, {{range Key}}/{{end}}; bare keys only, no
// dotted fields, no arguments, no and/or/eq. It also checks value types:
// {{Key}} needs a string, {{range Key}} a list, as execNodes does.
func checkKardianosGrammar(src string, data map[string]any) error {
	type block struct {
		kind    string
		sawElse bool
	}
	var stack []block
	inRange := func() bool {
		for _, b := range stack {
			if b.kind == "range" {
				return true
			}
		}
		return false
	}
	for _, m := range actionRE.FindAllStringSubmatch(src, -1) {
		action := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(m[1], "-"), "-"))
		kw := action
		if i := strings.IndexAny(action, " \t|"); i >= 0 {
			kw = action[:i]
		}
		switch kw {
		case "end":
			if len(stack) == 0 {
				return fmt.Errorf("unexpected {{end}}")
			}
			stack = stack[:len(stack)-1]
		case "else":
			if len(stack) == 0 || stack[len(stack)-1].kind != "if" || stack[len(stack)-1].sawElse {
				return fmt.Errorf("unexpected {{else}}")
			}
			stack[len(stack)-1].sawElse = true
		case "if", "range":
			key := strings.TrimSpace(action[len(kw):])
			v, ok := data[key]
			if !ok {
				return fmt.Errorf("{{%s}}: unknown key %q", action, key)
			}
			if _, isList := v.([]string); kw == "range" && !isList {
				return fmt.Errorf("{{%s}}: %q is not a list", action, key)
			}
			stack = append(stack, block{kind: kw})
		default:
			parts := strings.Split(action, "|")
			key := strings.TrimSpace(parts[0])
			if key == "." {
				if !inRange() {
					return fmt.Errorf("{{.}} outside range")
				}
			} else {
				v, ok := data[key]
				if !ok {
					return fmt.Errorf("{{%s}}: unknown key %q", action, key)
				}
				if _, isStr := v.(string); !isStr {
					return fmt.Errorf("{{%s}}: %q is not a string", action, key)
				}
			}
			for _, p := range parts[1:] {
				if _, ok := kardianosFuncs[strings.TrimSpace(p)]; !ok {
					return fmt.Errorf("{{%s}}: unknown function %q", action, strings.TrimSpace(p))
				}
			}
		}
	}
	if len(stack) != 0 {
		return fmt.Errorf("%d unclosed blocks", len(stack))
	}
	return nil
}

// renderSystemd renders a kardianos-syntax template with text/template. A
// bare key in kardianos's syntax is, to text/template, a call of a niladic
// function, so each data key becomes one; Parse then fails on any key or
// function kardianos would not provide ("function %q not defined").
func renderSystemd(t *testing.T, src string, data map[string]any) string {
	t.Helper()
	fm := template.FuncMap{}
	for name, fn := range kardianosFuncs {
		fm[name] = fn
	}
	for k, v := range data {
		switch v := v.(type) {
		case string:
			fm[k] = func() string { return v }
		case []string:
			fm[k] = func() []string { return v }
		default:
			t.Fatalf("data key %q has type %T; kardianos only passes string and []string", k, v)
		}
	}
	tmpl, err := template.New("systemd").Funcs(fm).Option("missingkey=error").Parse(src)
	if err != nil {
		t.Fatalf("parse systemd template: %v", err)
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, nil); err != nil {
		t.Fatalf("execute systemd template: %v", err)
	}
	return b.String()
}

func validConfig(t *testing.T) Config {
	t.Helper()
	dir := t.TempDir()
	return Config{
		Name:        "hearth",
		DisplayName: "Hearth",
		Description: "Hearth home appliance",
		Executable:  filepath.Join(dir, "bin", "hearth"),
		Args:        []string{"service", "run", "--data", filepath.Join(dir, "data")},
		DataDir:     filepath.Join(dir, "data"),
	}
}

func TestSystemdTemplate(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Name:        "hearth",
		Description: "Hearth home appliance",
		Executable:  "/usr/local/bin/hearth",
		Args:        []string{"service", "run", "--data", "/abs/data", "--addr", "0.0.0.0:8080"},
		User:        "hearth",
		WorkDir:     "/abs/data",
		DataDir:     "/abs/data",
	}
	kc := kardianosConfig(cfg, "linux")
	src, ok := kc.Option["SystemdScript"].(string)
	if !ok || src == "" {
		t.Fatal("linux config has no SystemdScript option")
	}
	data := systemdData(kc, cfg.Executable)

	if err := checkKardianosGrammar(src, data); err != nil {
		t.Fatalf("template uses syntax or keys kardianos v1.3.0 does not support: %v", err)
	}
	out := renderSystemd(t, src, data)

	for _, want := range []string{
		"ReadWritePaths=/abs/data\n",
		"NoNewPrivileges=true\n",
		"ProtectSystem=full\n",
		"ProtectHome=read-only\n",
		"PrivateTmp=true\n",
		"Restart=on-failure\n",
		"After=network-online.target\n",
		"Wants=network-online.target\n",
		"User=hearth\n",
		"WorkingDirectory=/abs/data\n",
		"Description=Hearth home appliance\n",
		`ExecStart=/usr/local/bin/hearth "service" "run" "--data" "/abs/data" "--addr" "0.0.0.0:8080"` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered unit lacks %q:\n%s", want, out)
		}
	}
	// Logs go to the journal, not to unrotated files under /var/log.
	if strings.Contains(out, "StandardOutput=") {
		t.Errorf("rendered unit redirects output to files:\n%s", out)
	}
	if strings.Contains(out, dataDirPlaceholder) {
		t.Errorf("placeholder left in unit:\n%s", out)
	}
}

// The checker must actually reject what kardianos rejects, or the test above
// proves nothing.
func TestCheckKardianosGrammarRejects(t *testing.T) {
	t.Parallel()
	data := systemdData(kardianosConfig(Config{Name: "x", DataDir: "/d"}, "linux"), "/bin/x")
	for _, src := range []string{
		"{{.Path}}",                   // text/template dotted field
		"{{Path | html}}",             // function kardianos does not give systemd
		"{{Nope}}",                    // unknown key
		"{{if and Path Name}}{{end}}", // boolean functions
		"{{Arguments}}",               // list used as a string
		"{{range Path}}{{end}}",       // string ranged over
		"{{.}}",                       // dot outside range
		"{{if Path}}",                 // unclosed
		"{{end}}",                     // stray end
	} {
		if err := checkKardianosGrammar(src, data); err == nil {
			t.Errorf("checkKardianosGrammar(%q) accepted it", src)
		}
	}
}

func TestSystemdScriptQuotesDataDirWithSpace(t *testing.T) {
	t.Parallel()
	got := systemdScript("/srv/my data")
	if !strings.Contains(got, `ReadWritePaths="/srv/my data"`+"\n") {
		t.Errorf("data dir with a space not quoted:\n%s", got)
	}
}

func TestKardianosConfigOptions(t *testing.T) {
	t.Parallel()
	cfg := Config{Name: "hearth", Executable: "/usr/bin/hearth", DataDir: "/var/lib/hearth", WorkDir: "/var/lib/hearth", User: "hearth", Args: []string{"service", "run"}}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		kc := kardianosConfig(cfg, goos)
		if got := kc.Option["Restart"]; got != "on-failure" {
			t.Errorf("%s: Restart = %v, want on-failure", goos, got)
		}
		if got := kc.Option["UserService"]; got != false {
			t.Errorf("%s: UserService = %v, want false", goos, got)
		}
		if got := kc.Option["LogOutput"]; got != true {
			t.Errorf("%s: LogOutput = %v, want true", goos, got)
		}
		_, hasScript := kc.Option["SystemdScript"]
		if hasScript != (goos == "linux") {
			t.Errorf("%s: SystemdScript present = %v", goos, hasScript)
		}
		if kc.Executable != cfg.Executable || kc.UserName != "hearth" || kc.WorkingDirectory != cfg.WorkDir {
			t.Errorf("%s: config not carried over: %+v", goos, kc)
		}
		if strings.Join(kc.Arguments, " ") != "service run" {
			t.Errorf("%s: Arguments = %q", goos, kc.Arguments)
		}
	}
	if got := kardianosConfig(cfg, "darwin").Option["RunAtLoad"]; got != true {
		t.Errorf("darwin: RunAtLoad = %v, want true", got)
	}
	if got := kardianosConfig(cfg, "windows").Option["OnFailure"]; got != "restart" {
		t.Errorf("windows: OnFailure = %v, want restart", got)
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	t.Parallel()
	run := func(context.Context) error { return nil }
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr string
	}{
		{"empty name", func(c *Config) { c.Name = "" }, "name is empty"},
		{"name with space", func(c *Config) { c.Name = "my hearth" }, "service name"},
		{"name with slash", func(c *Config) { c.Name = "../hearth" }, "service name"},
		{"relative data dir", func(c *Config) { c.DataDir = "data" }, "not an absolute path"},
		{"empty data dir", func(c *Config) { c.DataDir = "" }, "data dir is empty"},
		{"relative work dir", func(c *Config) { c.WorkDir = "./work" }, "not an absolute path"},
		{"relative executable", func(c *Config) { c.Executable = "bin/hearth" }, "not an absolute path"},
		{"newline in description", func(c *Config) { c.Description = "x\nExecStartPre=/bin/sh" }, "control character"},
		{"newline in argument", func(c *Config) { c.Args = append(c.Args, "a\nb") }, "control character"},
		{"template delimiters in data dir", func(c *Config) { c.DataDir = filepath.Join(c.DataDir, "{{Name}}") }, "must not contain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := validConfig(t)
			tt.mutate(&cfg)
			s, err := New(cfg, run, nil)
			if err == nil {
				t.Fatalf("New accepted %+v", cfg)
			}
			if s != nil {
				t.Errorf("New returned a Service with error %v", err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not mention %q", err, tt.wantErr)
			}
		})
	}

	t.Run("nil run", func(t *testing.T) {
		t.Parallel()
		if _, err := New(validConfig(t), nil, nil); err == nil {
			t.Error("New accepted a nil run function")
		}
	})
}

func TestNewFillsDefaults(t *testing.T) {
	t.Parallel()
	cfg := validConfig(t)
	cfg.Executable = ""
	s, err := New(cfg, func(context.Context) error { return nil }, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	got := s.Config()
	if !filepath.IsAbs(got.Executable) {
		t.Errorf("Executable = %q, want the absolute path of this binary", got.Executable)
	}
	if got.WorkDir != cfg.DataDir {
		t.Errorf("WorkDir = %q, want DataDir %q", got.WorkDir, cfg.DataDir)
	}
}

func TestControlRejectsUnknownAction(t *testing.T) {
	t.Parallel()
	s, err := New(validConfig(t), func(context.Context) error { return nil }, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	err = s.Control("bogus")
	if err == nil {
		t.Fatal("Control(bogus) succeeded")
	}
	for _, want := range []string{`"bogus"`, "install", "uninstall", "start", "stop", "restart"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestStatusWord(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	exit := exec.Command("false").Run() // a real *exec.ExitError: exit status 1
	tests := []struct {
		st        service.Status
		err       error
		installed installState
		want      string
		wantErr   bool
	}{
		{service.StatusRunning, nil, isInstalled, StatusRunning, false},
		{service.StatusStopped, nil, isInstalled, StatusStopped, false},
		{service.StatusUnknown, service.ErrNotInstalled, installUnknown, StatusNotInstalled, false},
		{service.StatusUnknown, fmt.Errorf("wrapped: %w", service.ErrNotInstalled), installUnknown, StatusNotInstalled, false},
		{service.StatusUnknown, boom, installUnknown, StatusUnknown, true},
		{service.StatusUnknown, nil, installUnknown, StatusUnknown, false},
		// sysv answers "exit status 1" for both a stopped and a missing service.
		{service.StatusUnknown, exit, notInstalled, StatusNotInstalled, false},
		{service.StatusUnknown, exit, isInstalled, StatusStopped, false},
		{service.StatusUnknown, exit, installUnknown, StatusUnknown, true},
	}
	for _, tt := range tests {
		got, err := statusWord(tt.st, tt.err, tt.installed)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("statusWord(%v, %v) = %q, %v; want %q, error %v", tt.st, tt.err, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestProgramStartStop(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	var returned atomic.Bool
	p := newProgram(func(ctx context.Context) error {
		close(started)
		<-ctx.Done()
		returned.Store(true)
		return ctx.Err() // a normal stop; Stop must not report it
	}, nil)

	if err := p.Start(nil); err != nil {
		t.Fatalf("Start: %v", err)
	}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("run was not called")
	}
	if err := p.Stop(nil); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if !returned.Load() {
		t.Error("Stop returned before run did")
	}
}

func TestProgramStopTimesOut(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	p := newProgram(func(ctx context.Context) error {
		<-release // ignores ctx
		return nil
	}, nil)
	p.stopTimeout = 100 * time.Millisecond

	if err := p.Start(nil); err != nil {
		t.Fatalf("Start: %v", err)
	}
	begin := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- p.Stop(nil) }()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "did not stop") {
			t.Errorf("Stop = %v, want a did-not-stop error", err)
		}
		if d := time.Since(begin); d < 100*time.Millisecond {
			t.Errorf("Stop gave up after %v, before the 100ms timeout", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stop hung on a run that ignores cancellation")
	}
}

func TestProgramRunFailsOnItsOwn(t *testing.T) {
	t.Parallel()
	boom := errors.New("listen: address in use")
	var exitCode atomic.Int32
	exitCode.Store(-1)
	p := newProgram(func(context.Context) error { return boom }, nil)
	p.exit = func(code int) { exitCode.Store(int32(code)) }

	if err := p.Start(nil); err != nil {
		t.Fatalf("Start: %v", err)
	}
	// wait is kardianos's RunWait; it must return when run does, without a signal.
	waited := make(chan struct{})
	go func() { p.wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("wait did not return after run failed")
	}
	if err := p.Stop(nil); !errors.Is(err, boom) {
		t.Errorf("Stop = %v, want run's error %v", err, boom)
	}
	// exit runs just after done is closed; give the goroutine a moment.
	deadline := time.Now().Add(5 * time.Second)
	for exitCode.Load() == -1 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := exitCode.Load(); got != 1 {
		t.Errorf("exit code = %d, want 1", got)
	}
}

func TestProgramStopBeforeStart(t *testing.T) {
	t.Parallel()
	p := newProgram(func(context.Context) error { return nil }, nil)
	if err := p.Stop(nil); err != nil {
		t.Errorf("Stop before Start = %v, want nil", err)
	}
}

func TestPrepareDataDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a", "data")
	if err := prepareDataDir(dir, ""); err != nil {
		t.Fatalf("prepareDataDir: %v", err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		t.Fatalf("data dir not created: %v", err)
	}
	// An existing folder is left alone, even with an owner that does not exist.
	if err := prepareDataDir(dir, "no-such-user-hearth-test"); err != nil {
		t.Errorf("prepareDataDir on existing dir: %v", err)
	}
}

func TestDefaultDataDir(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	tests := []struct {
		name string
		goos string
		uid  int
		env  map[string]string
		home string
		want string
	}{
		{"linux root", "linux", 0, nil, "/root", "/var/lib/hearth"},
		{"linux root ignores XDG", "linux", 0, map[string]string{"XDG_DATA_HOME": "/x"}, "/root", "/var/lib/hearth"},
		{"linux user XDG", "linux", 1000, map[string]string{"XDG_DATA_HOME": "/home/ann/.data"}, "/home/ann", "/home/ann/.data/hearth"},
		{"linux user relative XDG ignored", "linux", 1000, map[string]string{"XDG_DATA_HOME": "rel"}, "/home/ann", "/home/ann/.local/share/hearth"},
		{"linux user default", "linux", 1000, nil, "/home/ann", "/home/ann/.local/share/hearth"},
		{"linux user no home", "linux", 1000, nil, "", "data"},
		{"freebsd root", "freebsd", 0, nil, "/root", "/var/lib/hearth"},
		{"darwin root", "darwin", 0, nil, "/var/root", "/Library/Application Support/Hearth"},
		{"darwin user", "darwin", 501, nil, "/Users/ann", "/Users/ann/Library/Application Support/Hearth"},
		{"darwin user ignores XDG", "darwin", 501, map[string]string{"XDG_DATA_HOME": "/x"}, "/Users/ann", "/Users/ann/Library/Application Support/Hearth"},
		{"windows", "windows", -1, map[string]string{"ProgramData": `C:\ProgramData`}, `C:\Users\ann`, `C:\ProgramData\Hearth`},
		{"windows trailing slash", "windows", -1, map[string]string{"ProgramData": `D:\PD\`}, `C:\Users\ann`, `D:\PD\Hearth`},
		{"windows unset", "windows", -1, nil, `C:\Users\ann`, `C:\ProgramData\Hearth`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := defaultDataDir(tt.goos, tt.uid, env(tt.env), tt.home); got != tt.want {
				t.Errorf("defaultDataDir = %q, want %q", got, tt.want)
			}
		})
	}
}
