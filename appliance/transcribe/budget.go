package transcribe

import (
	"context"
	"errors"
	"time"
)

// UsageStore keeps how much audio each user had transcribed.
type UsageStore interface {
	TranscriptionUsage(ctx context.Context, userID string, since time.Time) (time.Duration, error)
	AddTranscriptionUsage(ctx context.Context, userID string, at time.Time, d time.Duration, keep time.Duration) error
}

// BudgetWindow is the rolling window a daily budget counts over.
const BudgetWindow = 24 * time.Hour

// ErrBudgetExhausted is returned once a user has used the day's budget.
var ErrBudgetExhausted = errors.New("daily transcription budget exhausted")

// Budget is a per-user allowance of transcribed audio per rolling 24 h,
// shared by the voice-message endpoints (2 h by default, as in the
// reference). A zero limit is no budget.
type Budget struct {
	store UsageStore
	limit time.Duration
	now   func() time.Time
}

// NewBudget returns a budget of limit per rolling 24 h.
func NewBudget(store UsageStore, limit time.Duration, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{store: store, limit: limit, now: now}
}

// Check fails with ErrBudgetExhausted when the user has nothing left.
func (b *Budget) Check(ctx context.Context, userID string) error {
	if b == nil || b.limit <= 0 {
		return nil
	}
	used, err := b.store.TranscriptionUsage(ctx, userID, b.now().Add(-BudgetWindow))
	if err != nil {
		return err
	}
	if used >= b.limit {
		return ErrBudgetExhausted
	}
	return nil
}

// Charge records d of transcribed audio.
func (b *Budget) Charge(ctx context.Context, userID string, d time.Duration) error {
	if b == nil || b.limit <= 0 || d <= 0 {
		return nil
	}
	return b.store.AddTranscriptionUsage(ctx, userID, b.now(), d, BudgetWindow)
}
