package console_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/store"
)

// clock is a settable time for codes' expiry.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// claimed is a household whose owner, Ada, has claimed the appliance.
func claimed(t *testing.T) (*console.Household, *clock, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	h := console.NewHousehold(db, clk.Now)
	if err := second(h.Invite(ctx, console.Actor{}, "Early")); err != console.ErrNotClaimed {
		t.Fatalf("an invite before the claim: %v", err)
	}
	code, err := h.SetupCode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := h.Setup(ctx, code, "Ada", "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	return h, clk, sess.UserID
}

// TestInviteCodes: an invite code works once, within its lifetime, typed
// with or without its dashes; a newer code replaces an older one; a weak
// password leaves the code usable.
func TestInviteCodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		use  func(h *console.Household, clk *clock, code string) string // the code to redeem
		ok   bool
	}{
		{"as given", func(_ *console.Household, _ *clock, code string) string { return code }, true},
		{"without dashes, with spaces", func(_ *console.Household, _ *clock, code string) string {
			return " " + strings.ReplaceAll(code, "-", "") + " "
		}, true},
		{"on its last day", func(_ *console.Household, clk *clock, code string) string {
			clk.Add(console.CodeLifetime - time.Minute)
			return code
		}, true},
		{"expired", func(_ *console.Household, clk *clock, code string) string {
			clk.Add(console.CodeLifetime + time.Second)
			return code
		}, false},
		{"replaced by a newer one", func(h *console.Household, _ *clock, code string) string {
			ms, _ := h.Members(context.Background())
			for _, m := range ms {
				if m.Name == "Bo" {
					if _, _, err := h.InviteExisting(context.Background(), console.Actor{}, m.ID); err != nil {
						panic(err)
					}
				}
			}
			return code
		}, false},
		{"wrong", func(_ *console.Household, _ *clock, code string) string { return "1111-2222-3333-4444" }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			h, clk, _ := claimed(t)
			u, code, expires, err := h.Invite(ctx, console.Actor{}, "Bo")
			if err != nil {
				t.Fatal(err)
			}
			if !expires.Equal(clk.Now().Add(console.CodeLifetime)) {
				t.Errorf("expires %v", expires)
			}
			typed := tc.use(h, clk, code)
			if _, _, err := h.Redeem(ctx, typed, "short"); err != console.ErrWeakPassword {
				t.Fatalf("a weak password: %v", err)
			}
			sess, _, err := h.Redeem(ctx, typed, "bo's long password")
			if !tc.ok {
				if err != console.ErrBadInvite {
					t.Fatalf("redeem %q: %v, want the refusal", typed, err)
				}
				return
			}
			if err != nil || sess.UserID != u.ID {
				t.Fatalf("redeem %q: %v", typed, err)
			}
			if _, _, err := h.Redeem(ctx, typed, "someone else's password"); err != console.ErrBadInvite {
				t.Errorf("the code used twice: %v", err)
			}
			if _, _, err := h.Login(ctx, "Bo", "bo's long password"); err != nil {
				t.Errorf("Bo's login: %v", err)
			}
		})
	}
}

// TestHouseholdRules: the owner stays (not removed, not reset by code);
// ownership goes only to someone who can sign in; names are unique.
func TestHouseholdRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h, _, ada := claimed(t)
	bo, code, _, err := h.Invite(ctx, console.Actor{UserID: ada}, "Bo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"a second Bo", second(h.Invite(ctx, console.Actor{}, " bo ")), console.ErrNameTaken},
		{"a nameless member", second(h.Invite(ctx, console.Actor{}, "  ")), console.ErrNoName},
		{"the owner removed", h.Remove(ctx, console.Actor{}, ada), console.ErrOwnerStays},
		{"the owner's reset", third(h.ResetPassword(ctx, console.Actor{}, ada)), console.ErrOwnPassword},
		{"the owner's invite", third(h.InviteExisting(ctx, console.Actor{}, ada)), console.ErrOwnPassword},
		{"to one who cannot sign in", h.TransferOwner(ctx, console.Actor{}, bo.ID), console.ErrNotSignedUp},
		{"to nobody", h.TransferOwner(ctx, console.Actor{}, "nobody"), console.ErrMemberUnknown},
		{"to the owner", h.TransferOwner(ctx, console.Actor{}, ada), console.ErrAlreadyOwner},
	} {
		if tc.err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if _, _, err := h.Redeem(ctx, code, "bo's long password"); err != nil {
		t.Fatal(err)
	}
	if err := third(h.InviteExisting(ctx, console.Actor{}, bo.ID)); err != console.ErrSignedUp {
		t.Errorf("an invite for one who signed up: %v", err)
	}
	if err := h.TransferOwner(ctx, console.Actor{UserID: ada}, bo.ID); err != nil {
		t.Fatal(err)
	}
	if r, _ := h.Role(ctx, ada); r != appliance.RoleMember {
		t.Errorf("Ada after the transfer: %s", r)
	}
	if r, _ := h.Role(ctx, bo.ID); r != appliance.RoleOwner {
		t.Errorf("Bo after the transfer: %s", r)
	}
	if err := h.Remove(ctx, console.Actor{UserID: bo.ID}, ada); err != nil {
		t.Fatal(err)
	}
	lines, err := h.AuditLog(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range lines {
		got = append(got, e.UserName+": "+e.Action+" "+e.Target)
	}
	want := []string{"Bo: member removed Ada", "Ada: ownership transferred Bo", "Bo: password set with a code ", "Ada: member invited Bo"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("audit:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func second[A, B, C any](_ A, _ B, _ C, err error) error { return err }
func third[A, B any](_ A, _ B, err error) error          { return err }
