package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// runFirebaseBinding is `hearth users bind-firebase` and `unbind-firebase`:
// which user a Firebase account (a rebuilt Omi app's sign-in) acts for.
// Like the other admin commands it is safe while the appliance serves; a
// running server honours the change at the next request.
func runFirebaseBinding(ctx context.Context, cmd string, fs *flag.FlagSet, cfg *appliance.Config, args []string, stdout io.Writer) error {
	user := fs.String("user", "", "the user id the Firebase account acts for (see 'hearth users list')")
	fuid := fs.String("firebase-uid", "", "the Firebase uid: the uid the Omi app sends, also named in the appliance's log when an unbound account is refused")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	*fuid = strings.TrimSpace(*fuid)
	if *fuid == "" || len(*fuid) > appliance.MaxFirebaseUIDLen {
		return usageErr("--firebase-uid is required (at most %d characters)", appliance.MaxFirebaseUIDLen)
	}
	if cmd == "unbind-firebase" {
		db, err := openStore(ctx, cfg.DataDir, false)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.UnbindFirebase(ctx, *user, *fuid); appliance.ErrorCode(err) == appliance.ENOTFOUND {
			if *user != "" {
				return usageErr("Firebase uid %s is not bound to %s", *fuid, *user)
			}
			return usageErr("Firebase uid %s is not bound", *fuid)
		} else if err != nil {
			return fmt.Errorf("unbind firebase uid: %w", err)
		}
		fmt.Fprintf(stdout, "unbound Firebase uid %s\n", *fuid)
		return nil
	}
	db, u, err := openForUser(ctx, cfg.DataDir, *user)
	if err != nil {
		return err
	}
	defer db.Close()
	err = db.BindFirebase(ctx, appliance.FirebaseAccount{UID: *fuid, UserID: u.ID, CreatedAt: time.Now().UTC()})
	if appliance.ErrorCode(err) == appliance.ECONFLICT {
		return usageErr("%s; unbind it first: %s users unbind-firebase --data %s --firebase-uid %s",
			appliance.ErrorMessage(err), self(), shellQuote(cfg.DataDir), shellQuote(*fuid))
	} else if err != nil {
		return fmt.Errorf("bind firebase uid: %w", err)
	}
	fmt.Fprintf(stdout, "bound Firebase uid %s to %s (%s)\n", *fuid, u.Name, u.ID)
	return nil
}
