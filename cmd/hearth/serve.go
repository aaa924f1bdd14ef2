package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/net/netutil"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/api"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/authn"
	"github.com/hearth-appliance/hearth/appliance/console"
	"github.com/hearth-appliance/hearth/appliance/conversation"
	"github.com/hearth-appliance/hearth/appliance/events"
	"github.com/hearth-appliance/hearth/appliance/listen"
	"github.com/hearth-appliance/hearth/appliance/logring"
	"github.com/hearth-appliance/hearth/appliance/mcp"
	"github.com/hearth-appliance/hearth/appliance/pipeline"
	"github.com/hearth-appliance/hearth/appliance/providerkeys"
	"github.com/hearth-appliance/hearth/appliance/records"
	"github.com/hearth-appliance/hearth/appliance/retranscribe"
	"github.com/hearth-appliance/hearth/appliance/search"
	"github.com/hearth-appliance/hearth/appliance/speaker"
	"github.com/hearth-appliance/hearth/appliance/speechsettings"
	"github.com/hearth-appliance/hearth/appliance/stt"
	"github.com/hearth-appliance/hearth/appliance/transcribe"
	"github.com/hearth-appliance/hearth/models"
	"github.com/hearth-appliance/hearth/store"
	"github.com/hearth-appliance/hearth/web"
)

// Main is the running appliance: tests start it on port 0 with a temp data
// folder, exactly as `hearth serve` does.
type Main struct {
	Config appliance.Config
	Logger *slog.Logger
	// Stderr is where serve prints what is for the person who started it,
	// not the log (the console's one-time setup code); nil is os.Stderr.
	Stderr io.Writer

	db             *store.DB
	api            *api.Server
	events         *events.Broker
	listen         *listen.Server
	auth           *authn.Authenticator
	indexer        *search.Indexer
	stopBackground context.CancelFunc
	background     sync.WaitGroup
	http           *http.Server
	listener       net.Listener
	served         chan error
	unlock         func() // gives back the data folder's lock
	lan            lanParts
	wyoming        net.Listener // --wyoming's, nil when off
	// logRing keeps the log's last records for the console's System page
	// (set by serve; nil in tests that build a Main with their own logger).
	logRing *logring.Ring
	// deprecated names the deprecated flags given; serve warns of each.
	deprecated []string
}

// NewMain returns a Main with the default configuration.
func NewMain() *Main {
	return &Main{Config: appliance.DefaultConfig(), Logger: slog.New(slog.DiscardHandler)}
}

// Run opens the store, wires the parts and starts serving. It returns once
// the listener is bound; Wait blocks until serving stops.
func (m *Main) Run(ctx context.Context) (err error) {
	startedAt := time.Now()
	if err := m.Config.Validate(); err != nil {
		return usageErr("%v", err)
	}
	dataDir, err := filepath.Abs(m.Config.DataDir)
	if err != nil {
		return fmt.Errorf("resolve data dir: %w", err)
	}
	m.Config.DataDir = dataDir
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	if m.unlock, err = lockData(dataDir); err != nil {
		return inUseHint(err)
	}
	if n, err := api.RemoveBackupLeftovers(dataDir); err != nil {
		m.Logger.Warn("data folder", "err", err)
	} else if n > 0 {
		m.Logger.Info("removed interrupted console backups", "count", n)
	}

	key := loadIdentityKey(dataDir)
	defer func() {
		if err != nil {
			key.wait() // nothing writes in the data folder after a failed start
		}
	}()
	db, err := store.Prepare(dataDir, store.WithReadConns(m.Config.ReadConns), store.WithLogger(m.Logger))
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	m.db = db
	// The parts below keep the DB but none reads it before it is ready;
	// what does (the indexer, the background jobs) starts after. A new
	// database is made ready now: created beside the wiring, its schema
	// (35 migrations and their fsyncs) made a first start slower, 95
	// against 77 ms at the median side by side, the cause not pinned down.
	// One whose header shows it current is made ready once serving has
	// started (storeGate); any other beside the wiring, on another core.
	current, err := db.Current()
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	ready := newStoreReady(ctx, db)
	defer func() {
		if err != nil {
			ready.settle() // Close must not close the pools under Ready
		}
	}()
	switch {
	case db.Fresh():
		if err := ready.wait(); err != nil {
			return fmt.Errorf("open store: %w", err)
		}
	case !current:
		ready.start()
	}
	// libav's complaints about bad frames go to the log, not stderr.
	audio.SetLibavLogger(m.Logger)
	extractor, err := newExtractor(m.Config, m.Logger)
	if err != nil {
		return err
	}
	embedder := newEmbedder(m.Config, m.Logger)
	m.events = events.NewBroker(0)
	m.auth = authn.New(db, key, m.Logger, nil)
	if err := m.withFirebase(); err != nil {
		return err
	}

	// Background work runs until the appliance's context ends; Close
	// cancels it and waits.
	bctx, stopBackground := context.WithCancel(ctx)
	m.stopBackground = stopBackground
	indexer := search.NewIndexer(db, embedder, m.Logger)

	keeper := newKeeper(m.Config, dataDir, m.Logger)
	conversations := conversation.New(conversation.Deps{
		Store: db, Processor: pipeline.New(extractor, m.Logger), Events: m.events, Logger: m.Logger,
		SilenceTimeout: m.Config.SilenceTimeout, Audio: keeper,
	})

	// Listen before building the HTTP parts: the appliance's own address
	// (port 0 picks one) goes into replies that name it.
	ln, err := net.Listen("tcp", m.Config.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", m.Config.Addr, err)
	}
	public, err := api.NewPublicURL(m.Config.PublicURL, ln.Addr().String(), m.Config.TrustedProxies)
	if err != nil {
		ln.Close()
		return usageErr("%v", err)
	}
	ln = m.capConns(ln, public)
	m.listener = ln

	searcher := search.NewSearcher(db, embedder, m.Logger)
	recs := records.New(records.Deps{Store: db, Search: searcher, Events: m.events, Logger: m.Logger})
	// The MCP endpoint is built once serving has started (see lazyHandler).
	mcpHandler := newLazyHandler()
	keys := &providerkeys.File{Path: filepath.Join(dataDir, "provider-keys.json"), Providers: providerKeyNames()}
	pulls, err := newModelStore(m.Config, dataDir)
	if err != nil {
		return err
	}
	speech, routes, err := newSpeechWiring(m.Config, keys, &speechsettings.File{Path: filepath.Join(dataDir, "speech-settings.json")}, pulls, m.Logger)
	if err != nil {
		return err
	}
	voice, err := newVoiceExtractor(m.Config, m.Logger)
	if err != nil {
		return err
	}
	profiles := &speaker.Profiles{Store: db, Voices: db, Extractor: voice}
	household := console.NewHousehold(db, nil)
	boundedRoute, routeStreams := boundedRoute(routes.streaming)
	m.listen = listen.New(listen.Deps{
		Conversations: conversations, History: db, Events: m.events, Router: speech.router,
		Voices:      households{profiles},
		SpoolDir:    filepath.Join(dataDir, "audio"),
		Translator:  liveTranslator(m.Config, extractor, m.Logger),
		Translation: listen.Translation{To: m.Config.TranslateTo, Event: m.Config.TranslationEvent},
		Timing:      listen.Timing{AudioGap: m.Config.ListenAudioGap},
		UserStreams: m.Config.ListenUserStreams, Owner: household.Service,
		StreamsRoute: boundedRoute, Streams: routeStreams,
		Keep: keepFunc(keeper), AudioFiles: audioFiles(keeper, m.Logger),
		Logger: m.Logger,
	})
	conversations.HearOutFrom(m.listen)
	retranscriber := retranscribe.New(retranscribe.Deps{
		Store: db, Audio: keeper, Conversations: conversations, Routes: routes.batch,
		Diarizer: profiles.Extractor, Voices: retranscribeVoices{profiles}, Logger: m.Logger,
	})
	m.api, err = api.New(api.Deps{
		Listen:         m.listen,
		Transcriber:    speech.batch.WithDiarizer(profiles.Extractor),
		VoiceBudget:    transcribe.NewBudget(db, m.Config.VoiceBudget, nil),
		SpeechProfiles: profiles,
		ConsoleAuth:    household.Service,
		Household:      household,
		Config:         m.Config,
		Store:          db,
		Conversations:  conversations,
		Auth:           m.auth,
		Records:        recs,
		MCP:            mcpHandler,
		PublicURL:      public,
		Logger:         m.Logger,
		Console:        web.FS(),
		Templates:      web.Templates(),
		Subscriber:     m.events,
		Speech:         speech,
		ProviderKeys:   keysThatApply{keys, speech},
		Models:         modelPuller{&models.Puller{Store: pulls, Ctx: bctx, Pulled: speech.modelPulled, Logger: m.Logger}, speech},
		Searcher:       searcher,
		IndexProgress:  indexer.Progress,
		System:         m.system(startedAt),
		Recordings:     keeper,
		Retranscriber:  retranscriber,
	})
	if err != nil {
		return err
	}

	m.http = &http.Server{
		// Slow or idle clients must not hold sockets forever.
		ReadHeaderTimeout: 10 * time.Second,
		// No whole-request ReadTimeout: it would also cut long-lived streams.
		// Bodies get their own deadline (--body-timeout) in the router.
		WriteTimeout:   5 * time.Minute,
		IdleTimeout:    2 * time.Minute,
		MaxHeaderBytes: 64 << 10,
		// Long-lived requests (streams, sockets) see the appliance's context
		// and end when it shuts down.
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    slog.NewLogLogger(m.Logger.Handler(), slog.LevelDebug),
	}
	m.served = make(chan error, 2)
	// Nothing is served until the front handler is final: it needs the
	// local CA and the --plain-http rule, which TLS start-up settles. The
	// listeners already accept, so early clients wait in the backlog.
	baseURL, tlsLn, err := m.startTLS(public.Default(), public)
	if err != nil {
		return err
	}
	gate := newStoreGate(m.api)
	m.http.Handler = m.lan.front(gate)
	if current {
		m.startServing(ln, tlsLn)
		gate.awaitAsked(storeAskedWithin)
	}
	if err := ready.wait(); err != nil {
		gate.open(err)
		return fmt.Errorf("open store: %w", err)
	}
	// Close waits for the indexer once it has been started (a failed
	// Start stops it too). Its first look (pending items, the index's
	// upkeep) waits out the grace; the model is selected now.
	m.indexer = indexer
	if err := indexer.StartAfter(bctx, startupGrace); err != nil {
		gate.open(err)
		return err
	}
	gate.open(nil)
	m.goBackground(func() { indexer.Follow(bctx, m.events.Subscribe("")) })
	m.goBackground(func() { conversations.RunSilenceTimeouts(bctx) })
	m.goBackground(func() {
		if sleepCtx(bctx, startupGrace) {
			sweepAudio(bctx, keeper, db, m.Logger)
		}
	})
	// Jobs interrupted by a restart resume here.
	m.goBackground(func() {
		if sleepCtx(bctx, startupGrace) {
			retranscriber.Run(bctx)
		}
	})
	if !current {
		m.startServing(ln, tlsLn)
	}
	go func() {
		sleepCtx(bctx, startupGrace)
		mcpHandler.build(func() http.Handler {
			return mcp.New(mcp.Deps{
				Records: recs, Verify: api.MCPTokenInfo, ResourceMetadataURL: public.MCPResourceMetadata,
				SameOrigin: public.SameOrigin, Logger: m.Logger,
			})
		})
	}()
	// The LAN announcement (Close stops it after the background work, so
	// one made late is stopped too) and the setup code (a write on a box
	// nobody owns) follow the grace as well.
	m.goBackground(func() {
		if sleepCtx(bctx, startupGrace) {
			m.startLAN(baseURL)
		}
	})
	if err := m.startWyoming(bctx, speech.batch); err != nil {
		return err
	}
	if err := key.wait(); err != nil {
		return err
	}
	m.goBackground(func() {
		if sleepCtx(bctx, startupGrace) {
			m.printSetupCode(bctx, db, public.Default())
		}
	})
	m.Logger.Info("hearth serving", "url", listenURL(m.Config.Addr, ln.Addr()), "open", public.Default(), "data", dataDir, "version", readableVersion())
	return nil
}

// startupGrace is how long the work that serving does not need waits once
// serving has started: the audio sweep's, the retranscription jobs' and
// the indexer's first look, the MCP endpoint's build (~3 ms), the LAN
// announcement and the setup code. Started with the listener, they took
// the two cores from the first requests, each of the jobs opening a read
// connection (about a millisecond of schema load).
const startupGrace = 100 * time.Millisecond

// printSetupCode prints the console's one-time setup code while nobody
// owns the appliance. Printed, not logged: whoever reads this output may
// claim the box. A store that fails here is logged; serving goes on (the
// console cannot be claimed until a restart prints a code).
func (m *Main) printSetupCode(ctx context.Context, db *store.DB, base string) {
	code, err := (&console.Service{Store: db}).SetupCode(ctx)
	if err != nil {
		if ctx.Err() == nil {
			m.Logger.Error("console setup code", "err", err)
		}
		return
	}
	if code == "" {
		return
	}
	out := m.Stderr
	if out == nil {
		out = os.Stderr
	}
	fmt.Fprintf(out, "\nNobody owns this appliance yet. Open %s/console and enter the setup code %s\n\n", base, code)
}

// sleepCtx waits d or until ctx ends, and says whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// storeAskedWithin is how long a restart that serves before its store is
// ready (storeGate) waits for a first request before making it ready
// anyway.
const storeAskedWithin = 10 * time.Millisecond

// startServing serves on the listeners (tlsLn may be nil).
func (m *Main) startServing(ln, tlsLn net.Listener) {
	go func() { m.served <- m.http.Serve(ln) }()
	if tlsLn != nil {
		go func() { m.served <- m.http.Serve(tlsLn) }()
	}
}

// capConns caps a listener's connections: per remote address (trusted
// proxies excepted), then overall. Past the overall cap new clients wait in
// the kernel's backlog instead of costing a goroutine and a file
// descriptor each; past an address's cap they are closed at once.
func (m *Main) capConns(ln net.Listener, public *api.PublicURL) net.Listener {
	ln = newPeerCapListener(ln, min(m.Config.MaxConnsPerAddr, m.Config.MaxConns), public.TrustsProxy)
	return netutil.LimitListener(ln, m.Config.MaxConns)
}

// system describes the running appliance for the console's System page
// (its speech routes are those in effect, api.Speech's).
func (m *Main) system(startedAt time.Time) api.System {
	sys := api.System{Version: readableVersion(), StartedAt: startedAt}
	if m.logRing != nil {
		sys.Log = m.logRing.Records
	}
	return sys
}

// listenURL names the listener as configured (0.0.0.0 stays 0.0.0.0, as in
// `make run`'s banner, rather than Go's [::]) with the port it got.
func listenURL(configured string, bound net.Addr) string {
	host, _, _ := net.SplitHostPort(configured)
	_, port, _ := net.SplitHostPort(bound.String())
	if host == "" {
		host = "0.0.0.0"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// goBackground runs fn until the background context ends; Close waits.
func (m *Main) goBackground(fn func()) {
	m.background.Add(1)
	go func() {
		defer m.background.Done()
		fn()
	}()
}

// Wait blocks until ctx ends or the server fails.
func (m *Main) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.served:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve: %w", err)
	}
}

// Close shuts down in order: stop accepting and drain requests, stop
// background work, close the store last.
func (m *Main) Close() error {
	var errs []error
	if m.http != nil {
		ctx, cancel := context.WithTimeout(context.Background(), m.Config.ShutdownTimeout)
		defer cancel()
		// Sockets are hijacked connections, which http.Server.Shutdown does
		// not track: end them first, with 1001 (going away).
		if m.listen != nil {
			m.listen.Shutdown(ctx)
		}
		m.http.SetKeepAlivesEnabled(false)
		if err := m.http.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("shutdown http: %w", err))
		}
	}
	m.stopWyoming()
	if m.api != nil {
		m.api.Close()
	}
	if m.stopBackground != nil {
		m.stopBackground()
		if m.indexer != nil {
			m.indexer.Wait()
		}
		m.background.Wait()
	}
	// After the background work: the announcement starts there.
	m.stopLAN()
	if m.auth != nil {
		m.auth.Close()
	}
	if m.events != nil {
		m.events.Close()
	}
	if m.db != nil {
		if err := m.db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close store: %w", err))
		}
	}
	if m.unlock != nil {
		m.unlock()
	}
	return errors.Join(errs...)
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	m := NewMain()
	fs := newFlagSet("serve", stderr)
	serveFlags(fs, &m.Config)
	deprecatedServeFlags(fs, &m.deprecated)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return serve(ctx, m, stderr)
}

// serve runs m until ctx ends; shared by `serve` and `service run`.
func serve(ctx context.Context, m *Main, stderr io.Writer) error {
	logger, err := newLogger(m.Config, stderr)
	if err != nil {
		return err
	}
	// Every record also goes to a ring the console's System page shows:
	// the owner sees what the box did lately without a shell, the
	// requests among it (debug in the log itself).
	m.logRing = logring.NewRing(logRecordsKept)
	logger = slog.New(logring.New(logger.Handler(), m.logRing, slog.LevelInfo, api.AccessLogMessage))
	m.Logger, m.Stderr = logger, stderr
	for _, name := range m.deprecated {
		logger.Warn("a deprecated flag was given; it does nothing", "flag", "--"+name, "why", deprecatedFlags[name])
	}
	stopProfile, err := startCPUProfile()
	if err != nil {
		return err
	}
	defer stopProfile()
	defer startHeapProfile()()
	defer startGCTuner(logger)()
	if err := m.Run(ctx); err != nil {
		m.Close()
		return err
	}
	err = m.Wait(ctx)
	logger.Info("hearth stopping")
	if cerr := m.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	return err
}

// logRecordsKept is how many of the last log records the console shows:
// with a line per request, some half an hour of a household's use.
const logRecordsKept = 500

// newLogger builds the one logger: text on a terminal, JSON otherwise.
func newLogger(cfg appliance.Config, w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, usageErr("log level %q: %v", cfg.LogLevel, err)
	}
	opts := &slog.HandlerOptions{Level: level}
	format := cfg.LogFormat
	if format == "auto" {
		format = "json"
		if f, ok := w.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				format = "text"
			}
		}
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, opts)), nil
	}
	return slog.New(slog.NewJSONHandler(w, opts)), nil
}

// boundedRoute is the first speech route that says how many live streams
// it runs, and that number (PocketSphinx, the route out of the box, does).
func boundedRoute(routes []stt.StreamingProvider) (string, int) {
	for _, r := range routes {
		if b, ok := r.(interface{ MaxStreams() int }); ok {
			return r.Name(), b.MaxStreams()
		}
	}
	return "", 0
}
