package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hearth-appliance/hearth/sysinit"
)

// serviceActions are what `hearth service` does.
var serviceActions = []string{"install", "uninstall", "start", "stop", "restart", "status", "run"}

const serviceUsage = `Usage:
  hearth service install   [serve flags] [--user NAME]   register 'hearth service run' with the OS service manager
  hearth service uninstall                               remove it (the data folder is kept)
  hearth service start|stop|restart                      control it
  hearth service status                                  print running, stopped or not installed
  hearth service run       [serve flags]                 what the service manager runs

Run 'hearth service install --help' for the serve flags.
`

// runService manages the OS service. `install` records the serve flags in
// the unit as `hearth service run --data /abs/dir ...`; `run` is what the
// service manager executes.
func runService(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("service needs an action: install, uninstall, start, stop, restart, status or run")
	}
	action := args[0]
	if isHelp(action) {
		fmt.Fprint(stdout, serviceUsage)
		return nil
	}
	if !slices.Contains(serviceActions, action) {
		return usageErr("unknown service action %q (valid: %s)", action, strings.Join(serviceActions, ", "))
	}
	m := NewMain()
	m.Config.DataDir = sysinit.DefaultDataDir()
	fs := newFlagSet("service "+action, stderr)
	serveFlags(fs, &m.Config)
	deprecatedServeFlags(fs, &m.deprecated)
	user := fs.String("user", "", "system user the service runs as (install only; default: the service manager's)")
	dryRun := fs.Bool("dry-run", false, "install only: print the service configuration instead of registering it")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	dataDir, err := filepath.Abs(m.Config.DataDir)
	if err != nil {
		return fmt.Errorf("resolve data dir: %w", err)
	}
	m.Config.DataDir = dataDir
	if err := m.Config.Validate(); err != nil {
		return usageErr("%v", err)
	}

	unitArgs := []string{"service", "run"}
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "user" || f.Name == "dry-run" {
			return
		}
		if f.Name == "data" || f.Value.String() != f.DefValue {
			// A boolean flag takes its value only as --name=value: a
			// separate "false" would end the flags and be refused.
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				unitArgs = append(unitArgs, "--"+f.Name+"="+f.Value.String())
				return
			}
			unitArgs = append(unitArgs, "--"+f.Name, f.Value.String())
		}
	})
	logger, err := newLogger(m.Config, stderr)
	if err != nil {
		return err
	}
	svc, err := sysinit.New(sysinit.Config{
		Name:        "hearth",
		DisplayName: "Hearth",
		Description: "Self-hosted home for a wearable's conversations",
		Args:        unitArgs,
		User:        *user,
		DataDir:     dataDir,
	}, func(ctx context.Context) error { return serve(ctx, m, stderr) }, logger)
	if err != nil {
		return err
	}
	switch action {
	case "run":
		return svc.Run()
	case "status":
		st, err := svc.Status()
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, st)
		return nil
	case "install":
		if *dryRun {
			fmt.Fprint(stdout, svc.Describe())
			return nil
		}
		if err := svc.Install(); err != nil {
			return fmt.Errorf("install service: %w", err)
		}
		cfg := svc.Config()
		fmt.Fprintf(stdout, "installed service %q (%s)\n  binary: %s\n  data:   %s\n  args:   %v\nstart it with: hearth service start\n",
			cfg.Name, svc.Platform(), cfg.Executable, cfg.DataDir, cfg.Args)
		return nil
	default:
		if err := svc.Control(action); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "service %s: done\n", action)
		return nil
	}
}
