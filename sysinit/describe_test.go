package sysinit

import (
	"strings"
	"testing"
)

func TestDescribeWindows(t *testing.T) {
	cfg := Config{Name: "hearth", DisplayName: "Hearth", Description: "d", Executable: `C:\Program Files\Hearth\hearth.exe`,
		Args: []string{"service", "run", "--data", `C:\ProgramData\Hearth`}, DataDir: `C:\ProgramData\Hearth`}
	got := describe(cfg, "windows", "windows-service")
	for _, want := range []string{
		"name:         hearth",
		`command:      "C:\Program Files\Hearth\hearth.exe" service run --data C:\ProgramData\Hearth`,
		"account:      LocalSystem",
		"start type:   automatic (delayed start)",
		"on failure:   restart after 10s",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "systemd") {
		t.Errorf("windows description mentions systemd:\n%s", got)
	}
}

func TestDescribeLinux(t *testing.T) {
	cfg := Config{Name: "hearth", Description: "Self-hosted home", Executable: "/usr/local/bin/hearth",
		Args: []string{"service", "run", "--data", "/var/lib/hearth dir"}, DataDir: "/var/lib/hearth", User: "hearth"}
	got := describe(cfg, "linux", "linux-systemd")
	if !strings.Contains(got, "account:      hearth") || !strings.Contains(got, "ReadWritePaths=/var/lib/hearth") {
		t.Fatalf("linux description:\n%s", got)
	}
	// The unit as written, not its template.
	for _, want := range []string{
		"Description=Self-hosted home\n",
		"ExecStart=/usr/local/bin/hearth \"service\" \"run\" \"--data\" \"/var/lib/hearth dir\"\n",
		"User=hearth\n",
		"Restart=on-failure\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "{{") {
		t.Errorf("the unit is printed as a template:\n%s", got)
	}
}

// TestDescribeLinuxWithoutSystemd: in a container or under another init,
// kardianos picks another platform; the dry run says the unit is not what
// install would write there.
func TestDescribeLinuxWithoutSystemd(t *testing.T) {
	cfg := Config{Name: "hearth", Description: "d", Executable: "/usr/local/bin/hearth",
		Args: []string{"service", "run", "--data", "/var/lib/hearth"}, DataDir: "/var/lib/hearth"}
	for _, tc := range []struct {
		platform string
		warned   bool
	}{
		{"linux-systemd", false},
		{"unix-systemv", true},
		{"linux-openrc", true},
	} {
		got := describe(cfg, "linux", tc.platform)
		warned := strings.Contains(got, "systemd is not running here: install would register through "+tc.platform)
		if warned != tc.warned || !strings.Contains(got, "ExecStart=/usr/local/bin/hearth") {
			t.Errorf("%s: warned %v, want %v:\n%s", tc.platform, warned, tc.warned, got)
		}
	}
}
