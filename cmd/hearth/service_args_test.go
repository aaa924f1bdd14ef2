package main

import (
	"io"
	"strings"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// TestServiceInstallWritesBooleanFlagsWhole: the unit's command line gives
// a boolean flag as --name=value, which `service run` parses back; a
// separate "false" would stop flag parsing and the service would not start.
func TestServiceInstallWritesBooleanFlagsWhole(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	out, errOut, code := cli(t, "service", "install", "--dry-run", "--data", data, "--addr", "127.0.0.1:0", "--mdns=false")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	// The unit as systemd would get it, not kardianos's template.
	if strings.Contains(out, "{{") || !strings.Contains(out, "\nExecStart="+hearthBin+" \"service\" \"run\"") || !strings.Contains(out, "\nReadWritePaths="+data+"\n") {
		t.Fatalf("dry run does not print the rendered unit:\n%s", out)
	}
	var command string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "command:") {
			command = line
		}
	}
	if !strings.Contains(command, " --mdns=false") || strings.Contains(command, "--mdns false") || !strings.Contains(command, "--addr 127.0.0.1:0") {
		t.Fatalf("unit command line %q", command)
	}
	args := strings.Fields(command)[4:] // command: BIN service run …
	cfg := appliance.DefaultConfig()
	fs := newFlagSet("service run", io.Discard)
	serveFlags(fs, &cfg)
	if err := parseFlags(fs, args); err != nil || cfg.MDNS {
		t.Fatalf("service run parses %q as mdns=%v: %v", args, cfg.MDNS, err)
	}
}
