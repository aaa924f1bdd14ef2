// Package sysinit installs and runs hearth as an operating-system service
// (systemd and other Linux init systems, launchd on macOS, the Windows service
// manager) through github.com/kardianos/service, and knows the per-OS default
// data folder. It knows nothing about the appliance itself: the work a service
// does is the run closure handed to New by cmd.
package sysinit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kardianos/service"
)

// DefaultStopTimeout bounds how long Stop waits for run to return after its
// context is cancelled. Service managers give a stopping service a limited
// grace period (systemd 90 s by default, the Windows SCM about 20 s) before
// killing it; staying well under both means a stuck shutdown is reported as
// an error by us rather than ending in a SIGKILL that explains nothing.
const DefaultStopTimeout = 10 * time.Second

// Status words returned by Service.Status. They are plain words rather than
// kardianos's numeric Status so cmd can print them as they are.
const (
	StatusRunning      = "running"
	StatusStopped      = "stopped"
	StatusNotInstalled = "not installed"
	StatusUnknown      = "unknown"
)

// validActions lists the Control actions, in the order shown in errors and help.
var validActions = []string{"install", "uninstall", "start", "stop", "restart"}

// Config describes the service to register. Every path must be absolute:
// a service is started by the service manager, not from the shell that ran
// `hearth service install`, so a relative path would resolve against some
// other directory (/ on systemd, System32 on Windows).
type Config struct {
	// Name is the service's identifier with the service manager (the systemd
	// unit name, the launchd label, the Windows service name). Required.
	Name string
	// DisplayName is the human-readable name, shown by Windows and in logs.
	DisplayName string
	// Description is a one-line description (systemd Description=).
	Description string
	// Executable is the absolute path of the binary the service runs; "" means
	// the currently running binary (os.Executable).
	Executable string
	// Args are the arguments the service manager passes to Executable, e.g.
	// {"service", "run", "--data", "/var/lib/hearth", "--addr", "0.0.0.0:8080"}.
	// Paths inside them should be absolute for the same reason as above.
	Args []string
	// User is the account the service runs as; "" means the manager's default
	// (root on Linux and macOS, LocalSystem on Windows).
	User string
	// WorkDir is the service's working directory; "" means DataDir, so any
	// relative path the appliance resolves lands in its own folder.
	// Windows services ignore it.
	WorkDir string
	// DataDir is the absolute data folder. It is created by Install when
	// missing and is the only path the hardened systemd unit may write to
	// (ReadWritePaths), so it is required.
	DataDir string
}

// Service is hearth registered with (or about to be registered with) the OS
// service manager. Build it with New; one Service serves both the control
// commands (install, start, status...) and Run, which the installed unit executes.
type Service struct {
	cfg    Config
	prog   *program
	svc    service.Service
	logger *slog.Logger
}

// New validates cfg and wraps run in a kardianos service. run is the whole
// appliance: it must block until ctx is cancelled and then shut down within
// DefaultStopTimeout. logger may be nil, which discards the few lines sysinit
// writes itself.
func New(cfg Config, run func(ctx context.Context) error, logger *slog.Logger) (*Service, error) {
	if run == nil {
		return nil, errors.New("sysinit: run function is nil")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg, err := normalize(cfg, os.Executable)
	if err != nil {
		return nil, err
	}

	p := newProgram(run, logger)
	if runtime.GOOS == "windows" {
		// The Windows backend of kardianos waits only for the service
		// manager's stop request (or Ctrl-C when interactive) and has no
		// RunWait hook, so a run that fails on its own would leave a live
		// process doing nothing. Exiting non-zero makes the SCM apply the
		// recovery action (restart) configured at install time.
		p.exit = os.Exit
	}

	kc := kardianosConfig(cfg, runtime.GOOS)
	// RunWait replaces kardianos's "wait for SIGTERM" on POSIX systems so Run
	// also returns when run fails on its own; Run then reports that failure
	// and the process exits non-zero, which is what Restart=on-failure and
	// launchd's KeepAlive react to.
	kc.Option["RunWait"] = p.wait

	svc, err := service.New(p, kc)
	if err != nil {
		return nil, fmt.Errorf("sysinit: create service %s: %w", cfg.Name, err)
	}
	return &Service{cfg: cfg, prog: p, svc: svc, logger: logger}, nil
}

// Platform names the service manager in use (e.g. "linux-systemd",
// "darwin-launchd", "windows-service") so cmd can tell the owner what
// `install` registered with.
func (s *Service) Platform() string {
	return s.svc.Platform()
}

// Config returns the normalized configuration: absolute executable, default
// WorkDir filled in. cmd prints it on install so owners see the paths used.
func (s *Service) Config() Config {
	c := s.cfg
	c.Args = append([]string(nil), s.cfg.Args...)
	return c
}

// Install creates DataDir if it is missing (owned by User when one is set,
// so the service account can write it) and registers the service so it
// starts at boot. It usually needs root or Administrator rights. Existing
// data folders are left exactly as they are.
func (s *Service) Install() error {
	if err := prepareDataDir(s.cfg.DataDir, s.cfg.User); err != nil {
		return fmt.Errorf("install service %s: %w", s.cfg.Name, err)
	}
	if err := s.svc.Install(); err != nil {
		return fmt.Errorf("install service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Uninstall removes the service registration. The data folder is kept:
// uninstalling the service must never delete the owner's recordings.
func (s *Service) Uninstall() error {
	if err := s.svc.Uninstall(); err != nil {
		return fmt.Errorf("uninstall service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Start asks the service manager to start the installed service.
func (s *Service) Start() error {
	if err := s.svc.Start(); err != nil {
		return fmt.Errorf("start service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Stop asks the service manager to stop the installed service.
func (s *Service) Stop() error {
	if err := s.svc.Stop(); err != nil {
		return fmt.Errorf("stop service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Restart asks the service manager to stop and start the installed service.
func (s *Service) Restart() error {
	if err := s.svc.Restart(); err != nil {
		return fmt.Errorf("restart service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Status reports the service's state as one of StatusRunning, StatusStopped,
// StatusNotInstalled or StatusUnknown. "not installed" is a normal answer,
// not an error; an error comes with StatusUnknown.
func (s *Service) Status() (string, error) {
	st, err := s.svc.Status()
	word, err := statusWord(st, err, unitInstalled(s.svc.Platform(), s.cfg.Name))
	if err != nil {
		return word, fmt.Errorf("status of service %s: %w", s.cfg.Name, err)
	}
	return word, nil
}

// statusWord maps kardianos's status and error to the words Status returns.
// Some service managers answer a status query for a stopped or unknown
// service with a bare non-zero exit (sysv's "service NAME status"); whether
// the unit file exists (installed: yes, no, or unknowable) tells which.
func statusWord(st service.Status, err error, installed installState) (string, error) {
	if errors.Is(err, service.ErrNotInstalled) || installed == notInstalled {
		return StatusNotInstalled, nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && installed == isInstalled {
		return StatusStopped, nil
	}
	if err != nil {
		return StatusUnknown, fmt.Errorf("the service manager did not answer (%w); is it running on this machine?", err)
	}
	switch st {
	case service.StatusRunning:
		return StatusRunning, nil
	case service.StatusStopped:
		return StatusStopped, nil
	default:
		return StatusUnknown, nil
	}
}

// installState is whether a service's unit file exists.
type installState int

const (
	installUnknown installState = iota // no known place to look (Windows asks the manager)
	isInstalled
	notInstalled
)

// unitInstalled looks for the unit file where each Unix service manager
// keeps it.
func unitInstalled(platform, name string) installState {
	var paths []string
	switch platform {
	case "linux-systemd":
		paths = []string{"/etc/systemd/system/" + name + ".service"}
	case "unix-systemv", "linux-openrc":
		paths = []string{"/etc/init.d/" + name}
	case "linux-upstart":
		paths = []string{"/etc/init/" + name + ".conf"}
	case "darwin-launchd":
		paths = []string{"/Library/LaunchDaemons/" + name + ".plist"}
		if home, err := os.UserHomeDir(); err == nil {
			paths = append(paths, filepath.Join(home, "Library", "LaunchAgents", name+".plist"))
		}
	default:
		return installUnknown
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			return isInstalled
		}
	}
	return notInstalled
}

// Run is what the installed unit executes (`hearth service run`). It starts
// run in the background and blocks until the service manager (or Ctrl-C /
// SIGTERM when interactive) stops it, then cancels run's context and waits
// for it. If run fails on its own, the failure is logged and returned, so
// the caller only has to exit non-zero for the manager to restart it.
func (s *Service) Run() error {
	if err := s.svc.Run(); err != nil {
		return fmt.Errorf("run service %s: %w", s.cfg.Name, err)
	}
	return nil
}

// Control performs one of the actions install, uninstall, start, stop or
// restart, as named on the command line (`hearth service <action>`).
func (s *Service) Control(action string) error {
	switch action {
	case "install":
		return s.Install()
	case "uninstall":
		return s.Uninstall()
	case "start":
		return s.Start()
	case "stop":
		return s.Stop()
	case "restart":
		return s.Restart()
	default:
		return fmt.Errorf("unknown service action %q (valid actions: %s)", action, strings.Join(validActions, ", "))
	}
}

// nameRE limits service names to what is safe as a unit file name, a launchd
// label/plist file name and a Windows service name all at once.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// normalize validates cfg and fills in the defaults (executable, work dir).
// executable is injected so tests need not depend on the test binary's path.
func normalize(cfg Config, executable func() (string, error)) (Config, error) {
	if cfg.Name == "" {
		return cfg, errors.New("sysinit: service name is empty")
	}
	if !nameRE.MatchString(cfg.Name) {
		return cfg, fmt.Errorf("sysinit: service name %q must be letters, digits, '.', '_' or '-'", cfg.Name)
	}
	// Every value below ends up in a unit file or plist; a line break would
	// let it add directives of its own.
	for field, v := range map[string]string{
		"display name": cfg.DisplayName, "description": cfg.Description,
		"user": cfg.User, "executable": cfg.Executable,
		"work dir": cfg.WorkDir, "data dir": cfg.DataDir,
	} {
		if hasControl(v) {
			return cfg, fmt.Errorf("sysinit: %s %q contains a control character", field, v)
		}
	}
	for _, a := range cfg.Args {
		if hasControl(a) {
			return cfg, fmt.Errorf("sysinit: argument %q contains a control character", a)
		}
	}

	if cfg.Executable == "" {
		exe, err := executable()
		if err != nil {
			return cfg, fmt.Errorf("sysinit: locate executable: %w", err)
		}
		cfg.Executable = exe
	}
	if !filepath.IsAbs(cfg.Executable) {
		return cfg, fmt.Errorf("sysinit: executable %q is not an absolute path; the service manager does not start from this shell's directory", cfg.Executable)
	}

	if cfg.DataDir == "" {
		return cfg, errors.New("sysinit: data dir is empty; the service needs an absolute data folder")
	}
	if !filepath.IsAbs(cfg.DataDir) {
		return cfg, fmt.Errorf("sysinit: data dir %q is not an absolute path; the service manager does not start from this shell's directory", cfg.DataDir)
	}
	// DataDir is pasted into the systemd template as literal text, so it must
	// not contain the template engine's delimiters.
	if strings.Contains(cfg.DataDir, "{{") || strings.Contains(cfg.DataDir, "}}") || strings.Contains(cfg.DataDir, `"`) {
		return cfg, fmt.Errorf(`sysinit: data dir %q must not contain "{{", "}}" or '"'`, cfg.DataDir)
	}
	cfg.DataDir = filepath.Clean(cfg.DataDir)

	if cfg.WorkDir == "" {
		cfg.WorkDir = cfg.DataDir
	}
	if !filepath.IsAbs(cfg.WorkDir) {
		return cfg, fmt.Errorf("sysinit: work dir %q is not an absolute path; the service manager does not start from this shell's directory", cfg.WorkDir)
	}
	cfg.Args = append([]string(nil), cfg.Args...)
	return cfg, nil
}

// hasControl reports whether s contains an ASCII control character.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// kardianosConfig translates cfg into kardianos's Config for the given GOOS
// (a parameter so tests can check every platform's options from one host).
func kardianosConfig(cfg Config, goos string) *service.Config {
	opts := service.KeyValue{
		// Restart only when hearth exits non-zero or is killed, so
		// `systemctl stop` and a clean shutdown stay stopped.
		"Restart": "on-failure",
		// A system service starts at boot without anyone logged in, which is
		// the point of an appliance.
		"UserService": false,
		// Keep stdout/stderr where the platform would otherwise lose them
		// (launchd has no journal). The Linux unit below sends them to the
		// journal instead; see systemdScript.
		"LogOutput": true,
	}
	switch goos {
	case "linux":
		opts["SystemdScript"] = systemdScript(cfg.DataDir)
	case "darwin":
		// launchd loads a daemon at boot only with RunAtLoad; KeepAlive
		// (kardianos default true) then restarts it when it exits.
		opts["RunAtLoad"] = true
	case "windows":
		// kardianos sets no recovery action unless asked, despite its docs;
		// "restart" is the SCM's equivalent of Restart=on-failure.
		opts["OnFailure"] = "restart"
		opts["OnFailureDelayDuration"] = "10s"
		// Windows has no network-online.target; a delayed automatic start
		// is the usual way to let networking settle first.
		opts["DelayedAutoStart"] = true
	}
	return &service.Config{
		Name:             cfg.Name,
		DisplayName:      cfg.DisplayName,
		Description:      cfg.Description,
		UserName:         cfg.User,
		Arguments:        append([]string(nil), cfg.Args...),
		Executable:       cfg.Executable,
		WorkingDirectory: cfg.WorkDir,
		Option:           opts,
	}
}

// dataDirPlaceholder marks where systemdScript inserts the data folder. It is
// replaced before kardianos sees the template, because kardianos passes no
// key for it.
const dataDirPlaceholder = "@HEARTH_DATA_DIR@"

// systemdTemplate is kardianos v1.3.0's built-in systemd unit (its
// systemdScript constant) with hardening added. kardianos renders it with its
// own small engine, not text/template: keys are bare ({{Path}}, not
// {{.Path}}), values are strings or string lists, and the only functions are
// cmd and cmdEscape. service_test.go checks that grammar and key set.
//
// Differences from the built-in unit, and why:
//   - After=/Wants=network-online.target: hearth binds and advertises on the
//     LAN, so it should start once the network is configured.
//   - NoNewPrivileges, ProtectSystem=full, ProtectHome=read-only, PrivateTmp:
//     an appliance reachable from the LAN should not be able to modify the OS,
//     users' homes or other services' temp files if compromised.
//   - ReadWritePaths=<data dir>: re-opens the one folder hearth writes, even
//     when it lives under a read-only /home. systemd refuses to start the unit
//     if it is missing, which is why Install creates it.
//   - No StandardOutput=file:/StandardError=file: lines: logs go to the
//     journal (rotated, `journalctl -u hearth`) instead of unrotated files in
//     /var/log that would slowly fill an appliance's disk.
//   - RestartSec=10 instead of 120: two minutes of downtime after a crash is
//     long for a device people talk to; 10 s still avoids a hot restart loop.
const systemdTemplate = `[Unit]
Description={{Description}}
ConditionFileIsExecutable={{Path | cmdEscape}}
After=network-online.target
Wants=network-online.target
{{range Dependencies}}{{.}}
{{end}}
[Service]
StartLimitInterval=5
StartLimitBurst=10
ExecStart={{Path | cmdEscape}}{{range Arguments}} {{. | cmd}}{{end}}
{{if ChRoot}}RootDirectory={{ChRoot | cmd}}
{{end}}{{if WorkingDirectory}}WorkingDirectory={{WorkingDirectory | cmdEscape}}
{{end}}{{if UserName}}User={{UserName}}
{{end}}{{if ReloadSignal}}ExecReload=/bin/kill -{{ReloadSignal}} "$MAINPID"
{{end}}{{if PIDFile}}PIDFile={{PIDFile | cmd}}
{{end}}{{if LimitNOFILE}}LimitNOFILE={{LimitNOFILE}}
{{end}}{{if Restart}}Restart={{Restart}}
{{end}}{{if SuccessExitStatus}}SuccessExitStatus={{SuccessExitStatus}}
{{end}}RestartSec=10
EnvironmentFile=-/etc/sysconfig/{{Name}}
NoNewPrivileges=true
ProtectSystem=full
ProtectHome=read-only
PrivateTmp=true
ReadWritePaths=` + dataDirPlaceholder + `

{{range EnvVars}}{{.}}
{{end}}[Install]
WantedBy=multi-user.target
`

// systemdScript returns the unit template with dataDir filled in. systemd
// splits ReadWritePaths on spaces, so a path containing one is quoted.
func systemdScript(dataDir string) string {
	p := dataDir
	if strings.ContainsAny(p, " \t") {
		p = `"` + p + `"`
	}
	return strings.Replace(systemdTemplate, dataDirPlaceholder, p, 1)
}

// prepareDataDir creates dir when it does not exist yet and, when owner is
// set, hands it to that account so the service can write it. An existing dir
// is left alone: changing the owner of a folder someone pointed us at (say
// /srv) would be a surprise.
func prepareDataDir(dir, owner string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("check data dir %q: %w", dir, err)
	}
	// 0750: recordings and transcripts are private to the service account
	// (and its group, for backups).
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return fmt.Errorf("create data dir %q: %w", dir, err)
	}
	if owner == "" || runtime.GOOS == "windows" {
		return nil
	}
	u, err := user.Lookup(owner)
	if err != nil {
		return fmt.Errorf("look up service user %q: %w", owner, err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return fmt.Errorf("service user %q has non-numeric uid %q", owner, u.Uid)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return fmt.Errorf("service user %q has non-numeric gid %q", owner, u.Gid)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		return fmt.Errorf("give data dir %q to %q: %w", dir, owner, err)
	}
	return nil
}

// program adapts run to kardianos's Interface, following navidrome's
// svcControl: Start launches run and returns at once (service managers time
// out a slow start), Stop cancels and waits a bounded time.
type program struct {
	run         func(ctx context.Context) error
	logger      *slog.Logger
	stopTimeout time.Duration
	// exit, when set, is called with 1 after run fails on its own; see New.
	exit func(code int)

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{} // closed when run returns
	err    error         // what run returned; read only after done is closed
}

func newProgram(run func(ctx context.Context) error, logger *slog.Logger) *program {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &program{run: run, logger: logger, stopTimeout: DefaultStopTimeout}
}

// Start implements service.Interface. It must return quickly, so run goes
// into its own goroutine.
func (p *program) Start(service.Service) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done != nil {
		return errors.New("sysinit: service already started")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	p.cancel, p.done = cancel, done
	go func() {
		err := p.run(ctx)
		p.err = err
		close(done)
		if ctx.Err() != nil {
			return // asked to stop; Stop reports the outcome
		}
		if err != nil {
			p.logger.Error("service stopped unexpectedly", "err", err)
		} else {
			p.logger.Warn("service run returned without being stopped")
		}
		if err != nil && p.exit != nil {
			p.exit(1)
		}
	}()
	return nil
}

// Stop implements service.Interface: it cancels run's context and waits up
// to stopTimeout for run to return. It returns run's error (so a failure
// becomes Run's error and a non-zero exit), ignoring the context.Canceled a
// run function typically returns when told to stop.
func (p *program) Stop(service.Service) error {
	p.mu.Lock()
	cancel, done := p.cancel, p.done
	p.mu.Unlock()
	if done == nil {
		return nil // never started
	}
	cancel()
	timer := time.NewTimer(p.stopTimeout)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		return fmt.Errorf("sysinit: service did not stop within %s of being asked to", p.stopTimeout)
	}
	if p.err != nil && !errors.Is(p.err, context.Canceled) {
		return p.err
	}
	return nil
}

// wait is kardianos's RunWait: it blocks until the process is asked to stop
// (SIGTERM from the service manager, Ctrl-C when interactive) or run returns
// on its own, whichever comes first.
func (p *program) wait() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(sig)
	p.mu.Lock()
	done := p.done
	p.mu.Unlock()
	select {
	case <-sig:
	case <-done:
	}
}
