package sysinit

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"text/template"

	"github.com/kardianos/service"
)

// Describe renders what Install would register on this platform, without
// touching the service manager: `hearth service install --dry-run`. On
// Windows that is the service's entry in the service control manager
// (name, command line, account, start type, recovery); elsewhere the
// same fields plus the platform's options and, on Linux, the systemd unit
// as it would be written (rendered, not its template).
func (s *Service) Describe() string {
	return describe(s.cfg, runtime.GOOS, s.svc.Platform())
}

func describe(cfg Config, goos, platform string) string {
	kc := kardianosConfig(cfg, goos)
	var b strings.Builder
	fmt.Fprintf(&b, "platform:     %s\n", platform)
	fmt.Fprintf(&b, "name:         %s\n", kc.Name)
	fmt.Fprintf(&b, "display name: %s\n", kc.DisplayName)
	fmt.Fprintf(&b, "description:  %s\n", kc.Description)
	fmt.Fprintf(&b, "command:      %s\n", commandLine(kc.Executable, kc.Arguments, goos))
	account := kc.UserName
	if account == "" {
		account = map[string]string{"windows": "LocalSystem"}[goos]
		if account == "" {
			account = "root"
		}
	}
	fmt.Fprintf(&b, "account:      %s\n", account)
	if goos == "windows" {
		start := "automatic"
		if v, _ := kc.Option["DelayedAutoStart"].(bool); v {
			start = "automatic (delayed start)"
		}
		fmt.Fprintf(&b, "start type:   %s\n", start)
		fmt.Fprintf(&b, "on failure:   %v after %v\n", kc.Option["OnFailure"], kc.Option["OnFailureDelayDuration"])
	} else {
		fmt.Fprintf(&b, "working dir:  %s\n", kc.WorkingDirectory)
	}
	keys := make([]string, 0, len(kc.Option))
	for k := range kc.Option {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "SystemdScript" {
			continue
		}
		fmt.Fprintf(&b, "option %s = %v\n", k, kc.Option[k])
	}
	if unit, ok := kc.Option["SystemdScript"].(string); ok {
		if goos == "linux" && platform != "linux-systemd" {
			// A container or an init without systemd: install registers
			// through that platform instead, and the unit's hardening does
			// not apply; say so rather than show a unit nobody will write.
			fmt.Fprintf(&b, "systemd is not running here: install would register through %s, without the hardening of the unit below\n", platform)
			fmt.Fprintf(&b, "systemd unit on a machine that runs systemd (/etc/systemd/system/%s.service):\n", kc.Name)
		} else {
			fmt.Fprintf(&b, "systemd unit (/etc/systemd/system/%s.service):\n", kc.Name)
		}
		if err := renderUnit(&b, unit, kc); err != nil {
			fmt.Fprintf(&b, "(the unit does not render: %v)\n", err)
		}
	}
	return b.String()
}

// renderUnit fills the unit template with the values kardianos's systemd
// Install gives it. Its engine is text/template's grammar with bare keys
// ({{Path}}), which text/template reads as calls of functions of no
// arguments: so each key is one, beside kardianos's cmd and cmdEscape.
func renderUnit(b *strings.Builder, unit string, kc *service.Config) error {
	str := func(k, def string) string {
		if v, ok := kc.Option[k].(string); ok {
			return v
		}
		return def
	}
	data := map[string]any{
		"Description": kc.Description, "Path": kc.Executable, "Name": kc.Name,
		"Dependencies": kc.Dependencies, "Arguments": kc.Arguments, "ChRoot": kc.ChRoot,
		"WorkingDirectory": kc.WorkingDirectory, "UserName": kc.UserName,
		"ReloadSignal": str("ReloadSignal", ""), "PIDFile": str("PIDFile", ""),
		"LogDirectory": str("LogDirectory", "/var/log"), "OutputFileSupport": "", "LimitNOFILE": "",
		"Restart": str("Restart", "always"), "SuccessExitStatus": str("SuccessExitStatus", ""),
		"EnvVars": []string(nil),
	}
	funcs := template.FuncMap{
		"cmd":       func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` },
		"cmdEscape": func(s string) string { return strings.ReplaceAll(s, " ", `\x20`) },
	}
	for k, v := range data {
		funcs[k] = func() any { return v }
	}
	t, err := template.New("unit").Funcs(funcs).Parse(unit)
	if err != nil {
		return err
	}
	return t.Execute(b, nil)
}

// commandLine quotes arguments the way the platform's service manager
// reads them.
func commandLine(exe string, args []string, goos string) string {
	parts := []string{exe}
	parts = append(parts, args...)
	for i, p := range parts {
		if strings.ContainsAny(p, " \t\"") || p == "" {
			parts[i] = `"` + strings.ReplaceAll(p, `"`, `\"`) + `"`
		}
	}
	return strings.Join(parts, " ")
}
