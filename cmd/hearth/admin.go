package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
	"github.com/hearth-appliance/hearth/store"
)

// openStore opens the data folder for an admin command. It is safe while
// `hearth serve` runs on the same folder (WAL mode, one writer at a time).
// Only `users add`, the first step on a new folder, may create one: every
// other command refuses a folder that holds no appliance, so that a typo
// in --data is an error rather than an empty answer and a stray database.
func openStore(ctx context.Context, dataDir string, create bool) (*store.DB, error) {
	if dataDir == "" {
		return nil, usageErr("--data is required")
	}
	if !create {
		if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); errors.Is(err, fs.ErrNotExist) {
			return nil, usageErr("%s holds no Hearth data (no %s); check --data, or start with 'hearth users add --data %s --name NAME'",
				dataDir, store.FileName, dataDir)
		}
	}
	db, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, fmt.Errorf("open store in %s: %w", dataDir, err)
	}
	return db, nil
}

const usersUsage = `Usage:
  hearth users add  --data DIR --name NAME [--time-zone Europe/Berlin]       create a user; prints its id
  hearth users list --data DIR                                               list users, their roles and Firebase accounts
  hearth users passwd --data DIR --user UID                                  set a console password, read from standard input
  hearth users invite --data DIR --name NAME | --user UID                    a member's one-time invite code (7 days)
  hearth users reset  --data DIR --user UID                                  end a member's password; prints a one-time reset code
  hearth users remove --data DIR --user UID                                  remove a member and all their data
  hearth users transfer-owner --data DIR --user UID                          hand the appliance to a member who can sign in
  hearth users bind-firebase   --data DIR --user UID --firebase-uid FUID     let a Firebase account (a rebuilt Omi app's) act as the user
  hearth users unbind-firebase --data DIR --firebase-uid FUID [--user UID]   stop it

Run 'hearth users add --help' for a subcommand's flags.
`

const keysUsage = `Usage:
  hearth keys create --data DIR --user UID --kind dev|mcp|stt [--name N] [--scopes a,b]   create a key; printed once
  hearth keys list   --data DIR --user UID                                                list keys (never whole)
  hearth keys revoke --data DIR --user UID --key KEY_ID_OR_KEY                            revoke a key

Run 'hearth keys create --help' for a subcommand's flags.
`

// isHelp reports whether a command's first argument asks for its help.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("users needs a subcommand: add, list, passwd, invite, reset, remove, transfer-owner, bind-firebase or unbind-firebase")
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usersUsage)
		return nil
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
		db, err := openStore(ctx, cfg.DataDir, true)
		if err != nil {
			return err
		}
		defer db.Close()
		// A name already taken is allowed (scripts make users by the dozen)
		// but said: the console signs in by name, so only the oldest of a
		// name can, and the uid a newcomer wanted may be the earlier one.
		users, err := db.Users(ctx)
		if err != nil {
			return err
		}
		for _, other := range users {
			if strings.EqualFold(other.Name, *name) {
				fmt.Fprintf(stderr, "note: a user named %q exists already (%s), and the console signs in by name: to use that one, give --user %s; 'hearth users list' shows every user\n", other.Name, other.ID, other.ID)
				break
			}
		}
		u := &appliance.User{ID: uuid.NewString(), Name: *name, TimeZone: *tz, CreatedAt: time.Now().UTC()}
		if err := db.CreateUser(ctx, u); err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		if err := console.NewHousehold(db, nil).Audit(ctx, console.Actor{}, "member added", u.Name, false); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "created user %q; next, a key that can read and create conversations:\n  %s keys create --data %s --user %s --kind dev --scopes %s,%s\n",
			u.Name, self(), shellQuote(cfg.DataDir), u.ID, appliance.ScopeConversationsRead, appliance.ScopeConversationsWrite)
		fmt.Fprintln(stdout, u.ID)
		return nil
	case "list":
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		db, err := openStore(ctx, cfg.DataDir, false)
		if err != nil {
			return err
		}
		defer db.Close()
		us, err := db.Users(ctx)
		if err != nil {
			return err
		}
		owner, err := (&console.Service{Store: db}).Owner(ctx)
		if err != nil {
			return err
		}
		accounts, err := db.FirebaseAccounts(ctx)
		if err != nil {
			return err
		}
		firebase := map[string][]string{}
		for _, a := range accounts {
			firebase[a.UserID] = append(firebase[a.UserID], a.UID)
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tROLE\tTIME ZONE\tCREATED\tFIREBASE")
		for _, u := range us {
			role := appliance.RoleMember
			if u.ID == owner {
				role = appliance.RoleOwner
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", u.ID, u.Name, role, orDash(u.TimeZone), u.CreatedAt.Format(time.RFC3339),
				orDash(strings.Join(firebase[u.ID], ",")))
		}
		return tw.Flush()
	case "passwd":
		user := fs.String("user", "", "the user id whose console password to set")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if *user == "" {
			return usageErr("--user is required")
		}
		fmt.Fprintln(stderr, "new console password (at least 10 characters), then Enter:")
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return usageErr("no password on standard input")
		}
		db, err := openStore(ctx, cfg.DataDir, true)
		if err != nil {
			return err
		}
		defer db.Close()
		h := console.NewHousehold(db, nil)
		if err := h.SetPassword(ctx, *user, strings.TrimRight(line, "\r\n")); err != nil {
			if appliance.ErrorCode(err) == appliance.EINVALID {
				return usageErr("%s", appliance.ErrorMessage(err))
			}
			return fmt.Errorf("set password: %w", err)
		}
		u, err := db.User(ctx, *user)
		if err != nil {
			return err
		}
		if err := h.Audit(ctx, console.Actor{}, "password set", u.Name, false); err != nil {
			return err
		}
		fmt.Fprintln(stderr, "password set; the user's browsers are signed out")
		return nil
	case "invite", "reset", "remove", "transfer-owner":
		return runHousehold(ctx, args[0], fs, &cfg, args[1:], stdout, stderr)
	case "bind-firebase", "unbind-firebase":
		return runFirebaseBinding(ctx, args[0], fs, &cfg, args[1:], stdout)
	default:
		return usageErr("unknown users subcommand %q (add, list, passwd, invite, reset, remove, transfer-owner, bind-firebase, unbind-firebase)", args[0])
	}
}

func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("keys needs a subcommand: create, list or revoke")
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, keysUsage)
		return nil
	}
	cfg := appliance.DefaultConfig()
	fs := newFlagSet("keys "+args[0], stderr)
	dataFlag(fs, &cfg)
	user := fs.String("user", "", "the user id the key acts for")
	switch args[0] {
	case "create":
		kind := fs.String("kind", "dev", "key family: dev (developer API), mcp (assistants) or stt (a device key: the live-audio sockets /v4/listen and /v1/custom-stt only)")
		name := fs.String("name", "", "a label for the key (default: '<kind> key')")
		scopes := fs.String("scopes", "", "comma-separated scopes (default: read-only for dev keys, all for mcp keys): "+strings.Join(appliance.AvailableScopes, ","))
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		k := appliance.KeyKind(*kind)
		if k != appliance.KeyKindDev && k != appliance.KeyKindMCP && k != appliance.KeyKindSTT {
			return usageErr("--kind must be dev, mcp or stt, not %q", *kind)
		}
		// Developer keys are read-only unless scoped (the reference's
		// default); an MCP key is for an assistant acting for the owner, so
		// it gets every scope unless scoped.
		sc := appliance.DefaultScopes
		switch k {
		case appliance.KeyKindMCP:
			sc = appliance.AvailableScopes
		case appliance.KeyKindSTT:
			if strings.TrimSpace(*scopes) != "" {
				return usageErr("device keys (stt) take no scopes: they open the live-audio sockets, /v4/listen and /v1/custom-stt, and OpenAI's speech API, /v1/audio/, and nothing else")
			}
			sc = []string{}
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
		grants := "with scopes " + strings.Join(sc, ",")
		if k == appliance.KeyKindSTT {
			grants = "for the live-audio sockets (/v4/listen, /v1/custom-stt) and OpenAI's speech API (/v1/audio/) only"
		}
		fmt.Fprintf(stderr, "created %s key %s for %s %s; it is shown once, store it now\n", k, key.ID, u.Name, grants)
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
		keyArg := fs.String("key", "", "the key to revoke: its id from 'hearth keys list', or the key itself")
		if err := parseFlags(fs, args[1:]); err != nil {
			return err
		}
		if *keyArg == "" {
			return usageErr("--key is required (the id from 'hearth keys list', or the key itself)")
		}
		db, u, err := openForUser(ctx, cfg.DataDir, *user)
		if err != nil {
			return err
		}
		defer db.Close()
		keyID, err := resolveKeyID(ctx, db, u.ID, *keyArg)
		if err != nil {
			return err
		}
		if err := db.RevokeKey(ctx, u.ID, keyID, time.Now().UTC()); err != nil {
			// Never echo the argument: it may be the secret itself.
			return fmt.Errorf("revoke key %s: %s", keyID, appliance.ErrorMessage(err))
		}
		fmt.Fprintf(stdout, "revoked key %s\n", keyID)
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
	// --token-ttl (and HEARTH_TOKEN_TTL) is the documented setting; --ttl
	// is its short spelling.
	fs.DurationVar(&cfg.TokenTTL, "token-ttl", cfg.TokenTTL, "how long the token is valid")
	fs.DurationVar(&cfg.TokenTTL, "ttl", cfg.TokenTTL, "short for --token-ttl")
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

// resolveKeyID names a key by its id, or by the key itself (which is hashed
// and looked up, never printed).
func resolveKeyID(ctx context.Context, db *store.DB, userID, arg string) (string, error) {
	kind, hash, wellFormed := appliance.ParseKey(arg)
	if kind == "" {
		return arg, nil // an id
	}
	if !wellFormed {
		return "", usageErr("--key looks like a %s key but is not a whole one; pass the id from 'hearth keys list' instead", kind)
	}
	k, err := db.KeyByHash(ctx, hash)
	if appliance.ErrorCode(err) == appliance.ENOTFOUND || (err == nil && k.UserID != userID) {
		return "", usageErr("no such key for this user (see 'hearth keys list')")
	} else if err != nil {
		return "", err
	}
	return k.ID, nil
}

// self is how to run this program again from the same shell: the path it
// was started by, or "hearth" when it was found on PATH.
func self() string {
	if p := os.Args[0]; strings.ContainsRune(p, os.PathSeparator) {
		return shellQuote(p)
	}
	return "hearth"
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '+' || r == ',' || r == '=' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func openForUser(ctx context.Context, dataDir, uid string) (*store.DB, *appliance.User, error) {
	if uid == "" {
		return nil, nil, usageErr("--user is required (see 'hearth users list')")
	}
	db, err := openStore(ctx, dataDir, false)
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
