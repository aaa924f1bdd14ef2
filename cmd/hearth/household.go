package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
)

// runHousehold is the command line's twin of the console's Members page:
// invite, reset, remove and transfer-owner. The shell acts as the box's
// keeper (whoever holds the data folder), recorded as "command line" in
// the audit trail.
func runHousehold(ctx context.Context, sub string, fs *flag.FlagSet, cfg *appliance.Config, args []string, stdout, stderr io.Writer) error {
	user := fs.String("user", "", "the member's user id (see 'hearth users list')")
	var name *string
	if sub == "invite" {
		name = fs.String("name", "", "a new member's name (or --user for an existing one's new invite)")
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if name != nil && (*name == "") == (*user == "") {
		return usageErr("give --name for a new member or --user for an existing one")
	}
	if name == nil && *user == "" {
		return usageErr("--user is required")
	}
	db, err := openStore(ctx, cfg.DataDir, false)
	if err != nil {
		return err
	}
	defer db.Close()
	h := console.NewHousehold(db, nil)
	var code string
	var expires time.Time
	switch sub {
	case "invite":
		if *user != "" {
			code, expires, err = h.InviteExisting(ctx, console.Actor{}, *user)
		} else {
			var u *appliance.User
			if u, code, expires, err = h.Invite(ctx, console.Actor{}, *name); err == nil {
				fmt.Fprintf(stderr, "invited %q (user id %s)\n", u.Name, u.ID)
			}
		}
	case "reset":
		code, expires, err = h.ResetPassword(ctx, console.Actor{}, *user)
	case "remove":
		if err = h.Remove(ctx, console.Actor{}, *user); err == nil {
			fmt.Fprintln(stderr, "removed, with all of the member's conversations, memories and keys")
		}
	case "transfer-owner":
		if err = h.TransferOwner(ctx, console.Actor{}, *user); err == nil {
			fmt.Fprintln(stderr, "the appliance now belongs to that member; the former owner is a member")
		}
	}
	if err != nil {
		switch appliance.ErrorCode(err) {
		case appliance.EINVALID, appliance.ECONFLICT, appliance.ENOTFOUND:
			return usageErr("%s", appliance.ErrorMessage(err))
		}
		return fmt.Errorf("users %s: %w", sub, err)
	}
	if code != "" {
		fmt.Fprintf(stderr, "one-time code, valid until %s: on the console's sign-in page choose %q, or open /console#/code/%s\n",
			expires.Local().Format(time.RFC1123), "I have a code", strings.TrimSpace(code))
		fmt.Fprintln(stdout, code)
	}
	return nil
}
