// Command hearth is the appliance: `hearth serve` runs it, and the other
// subcommands manage users, keys, tokens and the OS service. This is the
// only place where the parts are wired together, by hand.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

const usage = `hearth: a self-hosted home for a wearable's conversations

Usage:
  hearth serve   [--data DIR] [--addr HOST:PORT] [flags]   run the appliance
  hearth users   add|list|passwd|invite|reset|remove|transfer-owner|bind-firebase|unbind-firebase --data DIR  manage users and the household
  hearth keys    create|list|revoke --data DIR --user UID  manage API keys
  hearth token   --data DIR --user UID [--ttl 24h]         print an ID token (opens the live sockets too)
  hearth models  list|pull|verify|rm [NAME] --data DIR     speech model files
  hearth backup  --data DIR --out FILE                     copy the database while serving
  hearth restore FILE --data DIR                           put a backup in place (appliance stopped)
  hearth export  --data DIR --user UID [--format json|markdown]  a user's data, readable
  hearth listen  --file F --url URL --token T [--codec pcm16|pcm8|opus] [--end]  stream a recording live
  hearth listen  --mic [--device NAME] --url URL --token T  stream the box's microphone live
  hearth devices [--mic-backend auto]                      list capture devices
  hearth transcribe F --url URL --token T                  transcribe a recording
  hearth retranscribe [--route NAME] [--all | ID...] --url URL --token T  transcribe conversations again from their kept audio
  hearth service install|uninstall|start|stop|restart|status|run [serve flags]
  hearth discover [--wait 2s] [--json]                     list appliances on the LAN (mDNS)
  hearth version

Run 'hearth COMMAND --help' for a command's flags. Every flag has a HEARTH_*
environment twin (for example --data and HEARTH_DATA); flags win.
`

// run dispatches a subcommand and returns the exit code. Errors are printed
// here, once.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "serve":
		err = runServe(ctx, rest, stdout, stderr)
	case "users":
		err = runUsers(ctx, rest, stdout, stderr)
	case "keys":
		err = runKeys(ctx, rest, stdout, stderr)
	case "token":
		err = runToken(ctx, rest, stdout, stderr)
	case "service":
		err = runService(ctx, rest, stdout, stderr)
	case "models":
		err = runModels(ctx, rest, stdout, stderr)
	case "backup":
		err = runBackup(ctx, rest, stdout, stderr)
	case "restore":
		err = runRestore(ctx, rest, stdout, stderr)
	case "export":
		err = runExport(ctx, rest, stdout, stderr)
	case "listen":
		err = runListenClient(ctx, rest, stdout, stderr)
	case "transcribe":
		err = runTranscribeClient(ctx, rest, stdout, stderr)
	case "retranscribe":
		err = runRetranscribe(ctx, rest, stdout, stderr)
	case "devices":
		err = runDevices(ctx, rest, stdout, stderr)
	case "discover":
		err = runDiscover(ctx, rest, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "hearth", readableVersion())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "hearth: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "hearth: %v\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "hearth: %v\n", err)
		return 1
	}
}

// errUsage marks an error in how a command was called (exit code 2).
var errUsage = errors.New("usage")

func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}
