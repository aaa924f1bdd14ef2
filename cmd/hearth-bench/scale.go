package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/pipeline/embed"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/store"
)

// The scale scenario: how the appliance's cost changes as a year of
// conversations piles up. For each size N it seeds N conversations and N
// memories into a fresh data directory, in process, through the real
// conversation service, pipeline, store and search indexer (no HTTP: the
// seeding is not what is measured, and HTTP would make 100k take an hour),
// then starts `hearth serve` on that directory and measures creates, GET
// and memory search over HTTP, RSS and shutdown. A raw SQLite floor (one
// conversation row plus one row per segment per transaction, the least any
// create could write) is measured in the same run for the ratio.

// scaleRow is one size's figures.
type scaleRow struct {
	size       int
	seeded     time.Duration
	creates    result
	get        result
	search     result
	said       result        // conversation search over what was said (migration 0028)
	searchCPU  time.Duration // the server's CPU over the memory searches
	saidCPU    time.Duration // the server's CPU over the conversation searches
	dbBytes    int64         // the database's files after seeding
	floor      float64       // the raw SQLite floor measured just before this size's creates
	createCPU  time.Duration // the server's CPU over the creates and the indexing they caused
	afterRSS   int64
	afterAnon  int64
	shutdown   time.Duration
	exitStatus string
}

// parseSizes reads -scale's comma-separated sizes ("1000,10000,100k").
func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		mult := 1
		if n, ok := strings.CutSuffix(f, "k"); ok {
			f, mult = n, 1000
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n*mult > 1_000_000 {
			return nil, fmt.Errorf("-scale: %q is not a size between 1 and 1000k", f)
		}
		sizes = append(sizes, n*mult)
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("-scale names no size")
	}
	return sizes, nil
}

func runScale(ctx context.Context, cfg config, hearth string, stdout, stderr io.Writer) error {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "hearth-bench: "+format+"\n", args...) }
	sizes, err := parseSizes(cfg.scale)
	if err != nil {
		return err
	}
	root := cfg.scaleData
	if root == "" {
		if root, err = os.MkdirTemp("", "hearth-bench-scale-*"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(root, 0o700); err != nil {
		return err
	}
	defer func() {
		if cfg.keep || cfg.scaleData != "" {
			logf("keeping %s", root)
			return
		}
		os.RemoveAll(root)
	}()

	logf("measuring the raw SQLite floor for %s", cfg.duration)
	floor, err := sqliteFloor(ctx, filepath.Join(root, "floor.db"), cfg.segments, cfg.concurrency, cfg.duration)
	if err != nil {
		return fmt.Errorf("floor: %w", err)
	}
	logf("floor: %.0f transactions/s", floor)

	var rows []scaleRow
	for _, n := range sizes {
		if ctx.Err() != nil {
			break
		}
		row, err := scaleOnce(ctx, cfg, hearth, filepath.Join(root, strconv.Itoa(n)), n, logf)
		if err != nil {
			return fmt.Errorf("size %d: %w", n, err)
		}
		rows = append(rows, row)
		if !cfg.keep && cfg.scaleData == "" {
			os.RemoveAll(filepath.Join(root, strconv.Itoa(n)))
		}
	}
	out := scaleMarkdown(cfg, rows, floor)
	fmt.Fprint(stdout, out)
	if cfg.out != "" {
		return os.WriteFile(cfg.out, []byte(out), 0o600)
	}
	return ctx.Err()
}

func scaleOnce(ctx context.Context, cfg config, hearth, dataDir string, n int, logf func(string, ...any)) (scaleRow, error) {
	row := scaleRow{size: n}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return row, err
	}
	uid, ids, err := seeded(ctx, dataDir)
	if err != nil {
		return row, err
	}
	if uid != "" {
		logf("size %d: reusing %s (%d conversations)", n, dataDir, len(ids))
	} else {
		if uid, err = runCLI(ctx, hearth, "users", "add", "--data", dataDir, "--name", "bench"); err != nil {
			return row, err
		}
		logf("size %d: seeding %d conversations and %d memories in process", n, n, n)
		t0 := time.Now()
		if ids, err = seedStore(ctx, dataDir, uid, n, n, cfg.segments, logf); err != nil {
			return row, err
		}
		row.seeded = time.Since(t0)
	}
	row.dbBytes = dbSize(dataDir)
	logf("size %d: seeded and indexed in %s, database %s", n, fmtDur(row.seeded), fmtBytes(row.dbBytes))

	addr, err := resolveAddr(cfg.addr)
	if err != nil {
		return row, err
	}
	srv, err := startServer(ctx, hearth, dataDir, addr, 2*time.Minute)
	if err != nil {
		return row, err
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.stop(15 * time.Second)
		}
	}()
	key, err := srv.cli(ctx, "keys", "create", "--data", dataDir, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write,memories:read,memories:write")
	if err != nil {
		return row, err
	}
	mcpKey, err := srv.cli(ctx, "keys", "create", "--data", dataDir, "--user", uid, "--kind", "mcp")
	if err != nil {
		return row, err
	}
	client := newHTTPClient(cfg.concurrency, cfg.timeout)
	defer client.CloseIdleConnections()
	base := "http://" + addr
	if _, err := waitIndexed(ctx, client, base, 5*time.Minute); err != nil {
		return row, fmt.Errorf("index before the scenarios: %w", err)
	}
	shared := newSharedState(cfg.segments)
	for _, id := range ids {
		shared.addID(id)
	}
	opts := loadOptions{concurrency: cfg.concurrency, duration: cfg.duration, client: client, baseURL: base,
		key: key, mcpKey: mcpKey, shared: shared, procs: cfg.driverProcs}
	// The floor again, right before the creates, so that each size has
	// its own: the machine is shared and its speed drifts between sizes.
	if row.floor, err = sqliteFloor(ctx, filepath.Join(dataDir, "floor.db"), cfg.segments, cfg.concurrency, cfg.duration); err != nil {
		return row, fmt.Errorf("floor: %w", err)
	}
	logf("size %d: floor %.0f transactions/s", n, row.floor)
	cpu0 := processCPU(srv.pid())
	row.creates = runScenario(ctx, scenario{name: "from-segments", run: runFromSegments}, opts)
	if row.creates.indexWait, err = waitIndexed(ctx, client, base, 5*time.Minute); err != nil {
		row.creates.indexErr = err.Error()
	}
	row.createCPU = processCPU(srv.pid()) - cpu0
	row.get = runScenario(ctx, scenario{name: "get", run: runGet}, opts)
	cpu0 = processCPU(srv.pid())
	row.search = runScenario(ctx, scenario{name: "search", run: runRESTSearchMemories}, opts)
	cpu1 := processCPU(srv.pid())
	row.said = runScenario(ctx, scenario{name: "search-said", run: runRESTSearchSaid}, opts)
	row.searchCPU, row.saidCPU = cpu1-cpu0, processCPU(srv.pid())-cpu1
	row.afterRSS = readRSS(srv.pid())
	row.afterAnon = readAnonRSS(srv.pid())
	stopped = true
	row.shutdown, err = srv.stop(15 * time.Second)
	row.exitStatus = srv.exitStatus()
	for _, r := range []result{row.creates, row.get, row.search, row.said} {
		logf("size %d: %s %.1f/s p50 %s p99 %s, %d errors", n, r.name, r.rate(), fmtDur(r.percentile(50)), fmtDur(r.percentile(99)), r.errors)
		for _, s := range r.errorSamples {
			logf("  %s", s)
		}
	}
	return row, err
}

// runRESTSearchMemories is one memory search through the REST twin of
// the MCP tool, the way an assistant's HTTP integration searches.
func runRESTSearchMemories(ctx context.Context, w *worker) error {
	words := strings.Fields(memoryTopics[w.rng.IntN(len(memoryTopics))])
	q := url.Values{"query": {words[w.rng.IntN(len(words))] + " " + words[0]}, "limit": {"10"}}
	path := "/v1/mcp/memories/search?" + q.Encode()
	mw := *w
	mw.key = w.mcpKey
	r, err := mw.do(ctx, http.MethodGet, path, nil)
	w.latencies, w.requests = mw.latencies, mw.requests
	if err != nil {
		return err
	}
	return expect(http.MethodGet, "/v1/mcp/memories/search", r, http.StatusOK)
}

// runRESTSearchSaid is one conversation search through the REST twin of
// search_conversations: words said in the generated transcripts (a name,
// a thing, a place, or a few words of one sentence), so it ranks segments
// of the whole transcript index, not only titles.
func runRESTSearchSaid(ctx context.Context, w *worker) error {
	q := url.Values{"query": {saidQuery(w.rng)}, "limit": {"10"}}
	mw := *w
	mw.key = w.mcpKey
	r, err := mw.do(ctx, http.MethodGet, "/v1/mcp/conversations/search?"+q.Encode(), nil)
	w.latencies, w.requests = mw.latencies, mw.requests
	if err != nil {
		return err
	}
	return expect(http.MethodGet, "/v1/mcp/conversations/search", r, http.StatusOK)
}

// perOK is cpu over the requests of res that succeeded.
func perOK(cpu time.Duration, res result) time.Duration {
	if ok := res.operations - res.errors; ok > 0 {
		return cpu / time.Duration(ok)
	}
	return 0
}

// saidQuery is a conversation search's text as the scale scenario asks
// it: a name, a thing and a place, or three words of a sentence.
func saidQuery(rng *rand.Rand) string {
	switch rng.IntN(4) {
	case 0:
		return fill["name"][rng.IntN(len(fill["name"]))]
	case 1:
		return fill["item"][rng.IntN(len(fill["item"]))] + " " + fill["place"][rng.IntN(len(fill["place"]))]
	}
	topic := topics[rng.IntN(len(topics))]
	words := strings.Fields(expand(rng, topic[rng.IntN(len(topic))]))
	i := rng.IntN(max(1, len(words)-3))
	return strings.Join(words[i:min(i+3, len(words))], " ")
}

// seededIn is the seeding time for the report, or "reused" (-scale-data).
func seededIn(d time.Duration) string {
	if d == 0 {
		return "reused"
	}
	return fmtDur(d)
}

// seeded returns the user and the conversations of a data folder an
// earlier run seeded (-scale-data), or no user when it holds no database.
func seeded(ctx context.Context, dataDir string) (string, []string, error) {
	if _, err := os.Stat(filepath.Join(dataDir, store.FileName)); errors.Is(err, fs.ErrNotExist) {
		return "", nil, nil
	}
	db, err := store.Open(ctx, dataDir)
	if err != nil {
		return "", nil, err
	}
	defer db.Close()
	users, err := db.Users(ctx)
	if err != nil || len(users) == 0 {
		return "", nil, fmt.Errorf("reuse %s: no user (%v)", dataDir, err)
	}
	cs, err := db.Conversations(ctx, users[0].ID, appliance.ConversationFilter{Limit: 10000})
	if err != nil {
		return "", nil, fmt.Errorf("reuse %s: %w", dataDir, err)
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return users[0].ID, ids, nil
}

// dbSize is the size of the database's files (with its WAL) in dataDir.
func dbSize(dataDir string) int64 {
	var n int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if st, err := os.Stat(filepath.Join(dataDir, store.FileName+suffix)); err == nil {
			n += st.Size()
		}
	}
	return n
}

// seedStore writes conversations and memories for uid through the real
// conversation service (pipeline included) and embeds everything with the
// real indexer, so the server starts on a caught-up index. It returns the
// conversations' ids.
func seedStore(ctx context.Context, dataDir, uid string, conversations, memories, segments int, logf func(string, ...any)) ([]string, error) {
	db, err := store.Open(ctx, dataDir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	quiet := slog.New(slog.DiscardHandler)
	svc := conversation.New(conversation.Deps{Store: db, Processor: pipeline.New(pipeline.NewBuiltin(), quiet), Logger: quiet})

	ids := make([]string, conversations)
	var (
		wg      sync.WaitGroup
		errOnce sync.Once
		seedErr error
		next    = make(chan int)
	)
	// The group commit shares one transaction among the writes waiting for
	// it, so more writers than cores make the seeding faster.
	for w := range 4 * runtime.NumCPU() {
		rng := rand.New(rand.NewPCG(uint64(w)+1, 42))
		wg.Go(func() {
			for i := range next {
				segs := genTranscript(rng, segments)
				d := conversation.Draft{UserID: uid, Source: appliance.SourceOmi, Segments: make([]appliance.TranscriptSegment, len(segs))}
				for k, s := range segs {
					d.Segments[k] = appliance.TranscriptSegment{Text: s.Text, Speaker: s.Speaker, IsUser: s.IsUser, Start: s.Start, End: s.End}
				}
				c, err := svc.Create(ctx, d)
				if err != nil {
					errOnce.Do(func() { seedErr = err })
					continue
				}
				ids[i] = c.ID
			}
		})
	}
	t0 := time.Now()
	for i := range conversations {
		if i > 0 && i%10000 == 0 {
			logf("  %d conversations (%s)", i, fmtDur(time.Since(t0)))
		}
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if seedErr != nil {
		return nil, fmt.Errorf("seed conversations: %w", seedErr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	now := time.Now().UTC()
	for start := 0; start < memories; start += 500 {
		batch := make([]*appliance.Memory, 0, 500)
		for i := start; i < min(start+500, memories); i++ {
			at := now.Add(-time.Duration(memories-i) * time.Minute)
			batch = append(batch, &appliance.Memory{ID: appliance.NewID(), UserID: uid, Category: "interesting",
				Content:    fmt.Sprintf("Note %d about %s and what was decided", i, memoryTopics[i%len(memoryTopics)]),
				Visibility: appliance.VisibilityPrivate, Tags: []string{}, CreatedAt: at, UpdatedAt: at, ManuallyAdded: true})
		}
		if err := db.CreateMemories(ctx, batch); err != nil {
			return nil, fmt.Errorf("seed memories: %w", err)
		}
	}

	logf("  embedding everything with the built-in embedder")
	return ids, indexAll(ctx, db)
}

// indexAll embeds everything db holds with the real indexer and the
// built-in embedder, and returns once it has caught up.
func indexAll(ctx context.Context, db *store.DB) error {
	quiet := slog.New(slog.DiscardHandler)
	ictx, stop := context.WithCancel(ctx)
	defer stop()
	ix := search.NewIndexer(db, embed.NewBuiltin(appliance.DefaultConfig().EmbedDims), quiet)
	if err := ix.Start(ictx); err != nil {
		return err
	}
	defer ix.Wait()
	defer stop()
	for ctx.Err() == nil {
		p := ix.Progress()
		if p.LastError != "" {
			return fmt.Errorf("indexing: %s", p.LastError)
		}
		if p.Total > 0 && p.Embedded >= p.Total {
			return nil
		}
		ix.Notify()
		time.Sleep(50 * time.Millisecond)
	}
	return ctx.Err()
}

func scaleMarkdown(cfg config, rows []scaleRow, floor float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## hearth-bench scale\n\n%s per scenario, concurrency %d, %d segments per conversation; N conversations and N memories seeded.\n",
		cfg.duration, cfg.concurrency, cfg.segments)
	fmt.Fprintf(&b, "Raw SQLite floor at the start of the run (one conversation row plus %d segment rows per transaction, %d writers): **%.0f/s**; each size's own floor, measured just before its creates, is in the table.\n\n",
		cfg.segments, cfg.concurrency, floor)
	b.WriteString("| N | seeded in | database | floor/s | creates/s incl. indexing | of floor | server CPU per create | create p50 / p99 | GET p50 / p99 | memory search p50 / p99 | conversation search p50 / p99 | RSS after (anon) | shutdown |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		perCreate := time.Duration(0)
		if ok := r.creates.operations - r.creates.errors; ok > 0 {
			perCreate = r.createCPU / time.Duration(ok)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %.0f | %.0f | %.2f | %s | %s / %s | %s / %s | %s / %s | %s / %s | %s (%s) | %s |\n",
			r.size, seededIn(r.seeded), fmtBytes(r.dbBytes), r.floor, r.creates.indexedRate(), r.creates.indexedRate()/r.floor, fmtDur(perCreate),
			fmtDur(r.creates.percentile(50)), fmtDur(r.creates.percentile(99)),
			fmtDur(r.get.percentile(50)), fmtDur(r.get.percentile(99)),
			fmtDur(r.search.percentile(50)), fmtDur(r.search.percentile(99)),
			fmtDur(r.said.percentile(50)), fmtDur(r.said.percentile(99)),
			fmtBytes(r.afterRSS), fmtBytes(r.afterAnon), fmtDur(r.shutdown))
	}
	if len(rows) > 0 {
		first := rows[0].creates.indexedRate()
		last := rows[len(rows)-1]
		if first > 0 {
			fmt.Fprintf(&b, "\nCreates at %d against %d: %.2f× (1.00 = flat).\n", last.size, rows[0].size, last.creates.indexedRate()/first)
		}
		if last.size > rows[0].size {
			// Each conversation has a memory beside it; both are in the growth.
			per := float64(last.dbBytes-rows[0].dbBytes) / float64(last.size-rows[0].size) * 1000
			fmt.Fprintf(&b, "Database growth from %d to %d: %.2f MiB per 1k conversations of %d segments (and 1k memories).\n",
				rows[0].size, last.size, per/(1<<20), cfg.segments)
		}
	}
	for _, r := range rows {
		// The server's CPU per search is the figure a shared machine does
		// not blur: with c searches on fewer cores, p50 follows it.
		fmt.Fprintf(&b, "Server CPU per search at %d: memory %s, conversation %s.\n",
			r.size, fmtDur(perOK(r.searchCPU, r.search)), fmtDur(perOK(r.saidCPU, r.said)))
	}
	for _, r := range rows {
		for _, res := range []result{r.creates, r.get, r.search, r.said} {
			if res.errors > 0 {
				fmt.Fprintf(&b, "- N=%d %s: %d errors, e.g. %s\n", r.size, res.name, res.errors, strings.Join(res.errorSamples, "; "))
			}
		}
	}
	fmt.Fprintf(&b, "\n- machine: %s\n- driver: %s\n- date: %s\n- command: `%s`\n", machineInfo(), driverProcsNote(cfg.driverProcs),
		time.Now().UTC().Format(time.RFC3339), commandLine(os.Args))
	return b.String()
}
