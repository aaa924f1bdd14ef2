// Package search keeps the vector side of the search index current and
// answers hybrid searches. The Indexer embeds, in the background, every
// searchable item that lacks a vector of the active embedding model (new
// items, edited ones, and everything after a model change), and Search
// embeds a query and asks the store to fuse BM25 with vector KNN.
package search

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
)

// Tuning of the background indexer.
const (
	batchSize = 64
	// idlePoll catches writes made by other processes (the CLI) on the same
	// data folder; in-process writes wake the indexer at once.
	idlePoll = 30 * time.Second
	// Backoff after a failed embedding call (a remote embedder may be down).
	minBackoff = 2 * time.Second
	maxBackoff = 5 * time.Minute
	// progressEvery bounds how often a long re-embed logs its progress.
	progressEvery = 5 * time.Second
	// queryTimeout bounds embedding a search query; on timeout the search
	// falls back to text alone rather than fail.
	queryTimeout = 5 * time.Second
	// progressTimeout bounds the store query behind Progress (a health
	// check must answer even when the database is slow).
	progressTimeout = 2 * time.Second
	// maxIdleSteps bounds the upkeep steps (MaintainIndex) between two
	// wake-ups, should a store keep reporting more work.
	maxIdleSteps = 1000
	// gatherDelay is how long the indexer waits for more when it finds
	// less than a batch: under load writes come close together, and the
	// pause turns one small text-index and vector transaction per create
	// into one per batch (a commit's WAL pages are shared by its rows).
	gatherDelay = 20 * time.Millisecond
)

// Indexer embeds pending items in the background.
type Indexer struct {
	store appliance.SearchIndex
	emb   appliance.Embedder
	log   *slog.Logger
	wake  chan struct{}
	done  chan struct{}

	mu       sync.Mutex
	progress Progress
}

// Progress is how far the index is (the domain's IndexProgress).
type Progress = appliance.IndexProgress

// NewIndexer returns an indexer for the store and embedder.
func NewIndexer(store appliance.SearchIndex, emb appliance.Embedder, logger *slog.Logger) *Indexer {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Indexer{store: store, emb: emb, log: logger, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// Start selects the embedding model in the store (dropping vectors of any
// other model) and runs the indexer until ctx ends. Wait blocks until it has.
func (ix *Indexer) Start(ctx context.Context) error { return ix.StartAfter(ctx, 0) }

// StartAfter is Start with the indexer's first look (pending items, then
// the index's upkeep) put off by firstLook: a server starting up leaves
// the cores to its first requests. What is written meanwhile is indexed
// once it has passed; the model is selected at once, so Progress counts
// from the start.
func (ix *Indexer) StartAfter(ctx context.Context, firstLook time.Duration) error {
	reset, err := ix.store.UseEmbeddingModel(ctx, ix.emb.Model(), ix.emb.Dims())
	if err != nil {
		close(ix.done)
		return fmt.Errorf("select embedding model: %w", err)
	}
	ix.mu.Lock()
	ix.progress = Progress{Model: ix.emb.Model(), Reembed: reset}
	ix.mu.Unlock()
	if reset {
		ix.log.Info("embedding model changed; re-embedding everything in the background", "model", ix.emb.Model())
	}
	go func() {
		t := time.NewTimer(firstLook)
		defer t.Stop()
		select {
		case <-ctx.Done():
			close(ix.done)
		case <-t.C:
			ix.run(ctx)
		}
	}()
	return nil
}

// Wait blocks until the indexer has stopped.
func (ix *Indexer) Wait() { <-ix.done }

// Follow wakes the indexer for every event that wrote a searchable record,
// until ctx ends or the subscription closes. A subscription that dropped
// events still wakes it: the indexer looks for everything pending, not for
// what the events named.
func (ix *Indexer) Follow(ctx context.Context, sub appliance.Subscription) {
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			if writesSearchable(e.Type) {
				ix.Notify()
			}
		}
	}
}

func writesSearchable(t appliance.EventType) bool {
	switch t {
	case appliance.EventConversationProcessed, appliance.EventConversationChanged, appliance.EventMemoryCreated,
		appliance.EventMemoryChanged, appliance.EventActionItemChanged:
		return true
	}
	return false
}

// Notify tells the indexer that items were written; it never blocks.
func (ix *Indexer) Notify() {
	select {
	case ix.wake <- struct{}{}:
	default:
	}
}

// Progress reports how far the index is. The counts are read from the
// store on every call (two cheap reads), so they are never behind the
// writes: a caller waiting for Embedded == Total (the health check, the
// load driver) waits for the vectors, not for the indexer to wake up and
// notice the items written since its last batch. Should the store not
// answer, the figures of the last batch stand in.
func (ix *Indexer) Progress() Progress {
	ix.mu.Lock()
	p := ix.progress
	ix.mu.Unlock()
	if p.Model == "" { // not started
		return p
	}
	ctx, cancel := context.WithTimeout(context.Background(), progressTimeout)
	defer cancel()
	if done, total, err := ix.store.IndexProgress(ctx, p.Model); err == nil {
		p.Embedded, p.Total = done, total
		p.Reembed = p.Reembed && done < total
	}
	return p
}

func (ix *Indexer) run(ctx context.Context) {
	defer close(ix.done)
	backoff := minBackoff
	steps := 0
	for {
		embedded, err := ix.drain(ctx)
		wait := idlePoll
		switch {
		case err != nil && ctx.Err() == nil:
			ix.log.Warn("embedding failed; will retry", "model", ix.emb.Model(), "retry_in", backoff.String(), "err", err)
			ix.setError(err)
			wait, backoff = backoff, min(backoff*2, maxBackoff)
		case err != nil: // stopping
		case embedded > 0:
			// Look again at once: the index is idle only when a look finds
			// nothing pending.
			backoff = minBackoff
			continue
		default:
			backoff = minBackoff
			// Idle: upkeep that writers no longer pay for, one bounded step
			// at a time with a look for new work in between.
			if steps < maxIdleSteps {
				steps++
				more, err := ix.store.MaintainIndex(ctx)
				if err != nil && ctx.Err() == nil {
					ix.log.Warn("search index upkeep failed; will retry later", "err", err)
					steps = maxIdleSteps
				} else if more {
					continue
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-ix.wake:
		case <-time.After(wait):
		}
		steps = 0
	}
}

// drain embeds pending items until none is left and returns how many it
// embedded.
func (ix *Indexer) drain(ctx context.Context) (int, error) {
	model := ix.emb.Model()
	lastLog := time.Now()
	embedded := 0
	gathered := false
	for ctx.Err() == nil {
		docs, err := ix.store.PendingDocs(ctx, model, batchSize)
		if err != nil {
			return embedded, err
		}
		// Less than a batch: wait once for more. Under a stream of writes
		// a batch forms every gatherDelay instead of a small one per
		// write, each a transaction with the text index's and the
		// vectors' fixed pages; a full batch goes at once.
		if len(docs) > 0 && len(docs) < batchSize && !gathered {
			gathered = true
			select {
			case <-ctx.Done():
			case <-time.After(gatherDelay):
			}
			continue
		}
		gathered = false
		// The text index first: it is what a search reads at once, and
		// it takes a whole batch in one write.
		for {
			n, err := ix.store.IndexText(ctx)
			if err != nil {
				return embedded, err
			}
			if n == 0 {
				break
			}
		}
		if len(docs) == 0 {
			break
		}
		texts := make([]string, len(docs))
		for i, d := range docs {
			texts[i] = d.Text
		}
		vecs, err := ix.emb.Embed(ctx, texts)
		if err != nil {
			return embedded, fmt.Errorf("embed %d items: %w", len(docs), err)
		}
		if err := ix.store.PutVectors(ctx, model, docs, vecs); err != nil {
			return embedded, err
		}
		embedded += len(docs)
		// No progress bookkeeping per batch: Progress reads the store.
		if time.Since(lastLog) >= progressEvery {
			lastLog = time.Now()
			done, total, _ := ix.store.IndexProgress(ctx, model)
			ix.log.Info("embedding progress", "model", model, "embedded", done, "total", total)
		}
	}
	if err := ctx.Err(); err != nil {
		return embedded, err
	}
	done, total, err := ix.store.IndexProgress(ctx, model)
	if err != nil {
		return embedded, err
	}
	ix.mu.Lock()
	wasReembed := ix.progress.Reembed
	ix.progress.Embedded, ix.progress.Total, ix.progress.LastError = done, total, ""
	if done == total {
		ix.progress.Reembed = false
	}
	ix.mu.Unlock()
	if embedded > 0 && wasReembed && done == total {
		ix.log.Info("re-embedding finished", "model", model, "items", total)
	}
	return embedded, nil
}

func (ix *Indexer) setError(err error) {
	ix.mu.Lock()
	ix.progress.LastError = err.Error()
	ix.mu.Unlock()
}

// Calibrated is an embedder that knows the similarity below which its
// neighbours are unrelated.
type Calibrated interface {
	MinSimilarity() float64
}

// Searcher answers hybrid searches.
type Searcher struct {
	store appliance.SearchIndex
	emb   appliance.Embedder
	log   *slog.Logger
}

// NewSearcher returns a searcher over the store with the embedder.
func NewSearcher(store appliance.SearchIndex, emb appliance.Embedder, logger *slog.Logger) *Searcher {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Searcher{store: store, emb: emb, log: logger}
}

// Search runs one hybrid search. When the query cannot be embedded (a remote
// embedder is down), it answers from text alone. A query without a
// relevance floor gets the embedder's calibrated one (a negative floor
// turns it off).
func (s *Searcher) Search(ctx context.Context, userID string, q appliance.SearchQuery) ([]appliance.SearchHit, error) {
	if q.MinSimilarity == 0 {
		if c, ok := s.emb.(Calibrated); ok {
			q.MinSimilarity = c.MinSimilarity()
		}
	}
	if q.Vector == nil && q.Text != "" {
		ectx, cancel := context.WithTimeout(ctx, queryTimeout)
		vecs, err := s.emb.Embed(ectx, []string{q.Text})
		cancel()
		switch {
		case err != nil:
			s.log.Warn("embedding a search query failed; searching text only", "model", s.emb.Model(), "err", err)
		case len(vecs) == 1:
			q.Vector, q.Model = vecs[0], s.emb.Model()
		}
	}
	return s.store.Search(ctx, userID, q)
}
