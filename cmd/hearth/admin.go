package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/store"
)

// openStore opens the data folder for an admin command. It is safe while
// `hearth serve` runs on the same folder (WAL mode, one writer at a time).
func openStore(ctx context.Context, dataDir string) (*store.DB, error) {
	if dataDir == "" {
		return nil, usageErr("--data is required")
	}
	db, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, fmt.Errorf("open store in %s: %w", dataDir, err)
	}
	return db, nil
}

func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("users needs a subcommand: add or list")
	}
	cfg := appliance.DefaultConfig()
	fs := newFlagSet("users "+args[0], stderr)
	dataFlag(fs, &cfg)
	switch args[0] {
	case "add":
		name := fs.String("name", "", "the user's display name (used as speaker name)")
		tz := fs.String("time-zone", "", "IANA time zone, e.g. Europe/Berlin (default: the appliance's)")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		*name = strings.TrimSpace(*name)
		if *name == "" {
			return usageErr("--name is required")
		}
		if *tz != "" {
			if _, err := time.LoadLocation(*tz); err != nil {
				return usageErr("--time-zone %q: %v", *tz, err)
			}
		}
		db, err := openStore(ctx, cfg.DataDir)
		if err != nil {
			return err
		}
		defer db.Close()
		u := &appliance.User{ID: uuid.NewString(), Name: *name, TimeZone: *tz, CreatedAt: time.Now().UTC()}
		if err := db.CreateUser(ctx, u); err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		fmt.Fprintf(stderr, "created user %q; next: hearth keys create --data %s --user %s --kind dev\n", u.Name, cfg.DataDir, u.ID)
		fmt.Fprintln(stdout, u.ID)
		return nil
	case "list":
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		db, err := openStore(ctx, cfg.DataDir)
		if err != nil {
			return err
		}
		defer db.Close()
		us, err := db.Users(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tTIME ZONE\tCREATED")
		for _, u := range us {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", u.ID, u.Name, orDash(u.TimeZone), u.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	default:
		return usageErr("unknown users subcommand %q (add, list)", args[0])
	}
}

func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("keys needs a subcommand: create, list or revoke")
	}
	cfg := appliance.DefaultConfig()
	fs := newFlagSet("keys "+args[0], stderr)
	dataFlag(fs, &cfg)
	user := fs.String("user", "", "the user id the key acts for")
	switch args[0] {
	case "create":
		kind := fs.String("kind", "dev", "key family: dev (developer API) or mcp (assistants)")
		name := fs.String("name", "", "a label for the key (default: '<kind> key')")
		scopes := fs.String("scopes", "", "comma-separated scopes (default: read-only for dev keys, all for mcp keys): "+strings.Join(appliance.AvailableScopes, ","))
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		k := appliance.KeyKind(*kind)
		if k != appliance.KeyKindDev && k != appliance.KeyKindMCP {
			return usageErr("--kind must be dev or mcp, not %q", *kind)
		}
		// Developer keys are read-only unless scoped (the reference's
		// default); an MCP key is for an assistant acting for the owner, so
		// it gets every scope unless scoped.
		sc := appliance.DefaultScopes
		if k == appliance.KeyKindMCP {
			sc = appliance.AvailableScopes
		}
		if strings.TrimSpace(*scopes) != "" {
			sc = nil
			for _, s := range strings.Split(*scopes, ",") {
				if s = strings.TrimSpace(s); s != "" {
					sc = append(sc, s)
				}
			}
			if !appliance.ValidScopes(sc) {
				return usageErr("invalid scopes %q; available: %s", *scopes, strings.Join(appliance.AvailableScopes, ", "))
			}
		}
		if *name == "" {
			*name = *kind + " key"
		}
		db, u, err := openForUser(ctx, cfg.DataDir, *user)
		if err != nil {
			return err
		}
		defer db.Close()
		raw, hash, display := appliance.NewKeySecret(k)
		key := &appliance.Key{ID: uuid.NewString(), UserID: u.ID, Kind: k, Name: *name, Hash: hash, Display: display,
			Scopes: sc, CreatedAt: time.Now().UTC()}
		if err := db.CreateKey(ctx, key); err != nil {
			return fmt.Errorf("create key: %w", err)
		}
		fmt.Fprintf(stderr, "created %s key %s for %s with scopes %s; it is shown once, store it now\n",
			k, key.ID, u.Name, strings.Join(sc, ","))
		fmt.Fprintln(stdout, raw)
		return nil
	case "list":
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		db, u, err := openForUser(ctx, cfg.DataDir, *user)
		if err != nil {
			return err
		}
		defer db.Close()
		ks, err := db.Keys(ctx, u.ID)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tNAME\tKEY\tSCOPES\tCREATED\tLAST USED\tREVOKED")
		for _, k := range ks {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Kind, k.Name, k.Display, strings.Join(k.Scopes, ","),
				k.CreatedAt.Format(time.RFC3339), fmtOptTime(k.LastUsedAt), fmtOptTime(k.RevokedAt))
		}
		return tw.Flush()
	case "revoke":
		keyID := fs.String("key", "", "the key id to revoke (from 'hearth keys list')")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if *keyID == "" {
			return usageErr("--key is required")
		}
		db, u, err := openForUser(ctx, cfg.DataDir, *user)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := db.RevokeKey(ctx, u.ID, *keyID, time.Now().UTC()); err != nil {
			return fmt.Errorf("revoke key: %s", appliance.ErrorMessage(err))
		}
		fmt.Fprintf(stdout, "revoked key %s\n", *keyID)
		return nil
	default:
		return usageErr("unknown keys subcommand %q (create, list, revoke)", args[0])
	}
}

func runToken(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := appliance.DefaultConfig()
	fs := newFlagSet("token", stderr)
	dataFlag(fs, &cfg)
	user := fs.String("user", "", "the user id the token identifies")
	fs.DurationVar(&cfg.TokenTTL, "ttl", cfg.TokenTTL, "how long the token is valid")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if cfg.TokenTTL <= 0 {
		return usageErr("--ttl must be positive")
	}
	db, u, err := openForUser(ctx, cfg.DataDir, *user)
	if err != nil {
		return err
	}
	db.Close()
	signer, err := idtoken.LoadOrCreate(cfg.DataDir)
	if err != nil {
		return err
	}
	tok, err := signer.Issue(u.ID, cfg.TokenTTL)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "ID token for %s, valid until %s\n", u.Name, time.Now().Add(cfg.TokenTTL).UTC().Format(time.RFC3339))
	fmt.Fprintln(stdout, tok)
	return nil
}

func openForUser(ctx context.Context, dataDir, uid string) (*store.DB, *appliance.User, error) {
	if uid == "" {
		return nil, nil, usageErr("--user is required (see 'hearth users list')")
	}
	db, err := openStore(ctx, dataDir)
	if err != nil {
		return nil, nil, err
	}
	u, err := db.User(ctx, uid)
	if err != nil {
		db.Close()
		if appliance.ErrorCode(err) == appliance.ENOTFOUND {
			return nil, nil, usageErr("no user %q in %s (see 'hearth users list')", uid, dataDir)
		}
		return nil, nil, err
	}
	return db, u, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fmtOptTime(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.Format(time.RFC3339)
}
