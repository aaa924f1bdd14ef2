package sysinit

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
)

// Describe renders what Install would register on this platform, without
// touching the service manager: `hearth service install --dry-run`. On
// Windows that is the service's entry in the service control manager
// (name, command line, account, start type, recovery); elsewhere the
// same fields plus the platform's options (the systemd unit's template).
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
		fmt.Fprintf(&b, "systemd unit template:\n%s", unit)
	}
	return b.String()
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
