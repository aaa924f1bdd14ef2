// Command hearth-bench is the load driver behind `make bench`.
//
// It starts a real `hearth serve` child process on a loopback port with a
// throw-away data directory, measures how long it takes to become healthy and
// how much memory it holds while idle, creates a user and a developer key
// through the CLI, then drives each scenario (see scenarios.go) with a fixed
// number of concurrent workers for a fixed duration and prints a markdown
// report. The server is always stopped and the data directory removed, also
// when the driver is interrupted with Ctrl-C.
//
// Usage:
//
//	go run ./cmd/hearth-bench -hearth bin/hearth -duration 10s -concurrency 16
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// config is everything the flags control.
type config struct {
	hearth      string
	duration    time.Duration
	concurrency int
	segments    int
	out         string
	addr        string
	timeout     time.Duration
	scenarios   string
	keep        bool
	memories    int
	scale       string // sizes for the scale scenario, e.g. "1k,10k,100k"
	scaleData   string // a folder of kept scale data folders (DIR/N) to reuse
	driverProcs int    // Go processors the workers run on during a scenario; 0: all

	listenSessions int           // 0: no socket scenario
	listenMode     string        // custom or scripted
	listenBatch    time.Duration // how frames are bunched
	listenOnly     bool          // -scenarios listen or words-lost: no HTTP scenarios
	uploadMB       int           // 0: no upload scenario

	wordsLost      bool // -scenarios words-lost
	wordsSentences int  // recordings in the words-lost scenario
	wordsSessions  int  // of them at once

	transcriptSearch bool // -scenarios transcript-search
	searchOthers     int  // conversations created beside the labelled ones

	realSpeech     bool // -scenarios realspeech
	realConditions string
	realCodecs     string
	realClips      int
	realPause      float64
	realSpeed      float64
	realSessions   int
	realConds      []string // parsed
	realCodecList  []string // parsed

	startup       bool          // -scenarios startup
	startupRounds int           // starts of each kind
	echoFloor     string        // prebuilt echo floor; "": built with go build
	quietWait     time.Duration // how long to wait for a quiet machine before a pass
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("hearth-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.hearth, "hearth", "bin/hearth", "path of the hearth binary to benchmark")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long each scenario runs")
	fs.IntVar(&c.concurrency, "concurrency", 16, "number of concurrent workers per scenario")
	fs.IntVar(&c.segments, "segments", 12, "transcript segments per created conversation (1-500)")
	fs.IntVar(&c.memories, "memories", 10000, "memories seeded before the MCP scenarios")
	fs.StringVar(&c.scale, "scale", "", "run the scale scenario instead: for each size N (e.g. 1k,10k,100k), seed N conversations and N memories in process, then measure creates, GET and search over HTTP")
	fs.IntVar(&c.driverProcs, "driver-procs", 1, "Go processors (GOMAXPROCS) the driver's workers run on while a scenario runs; 0 keeps all. The driver shares the machine with the server: on one, its workers and HTTP connections hand work to each other on one thread instead of waking a second, and the other cores are left to the server")
	fs.StringVar(&c.out, "out", "", "also write the markdown report to this file")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "loopback address for the server; port 0 picks a free port")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "per-request HTTP timeout")
	fs.StringVar(&c.scenarios, "scenarios", "", "comma-separated scenario names to run (default: all: "+strings.Join(scenarioNames(), ",")+"); listen (the socket and upload scenarios), startup, words-lost, realspeech and transcript-search run alone")
	fs.BoolVar(&c.keep, "keep", false, "keep the temporary data directory (its path is printed)")
	fs.StringVar(&c.scaleData, "scale-data", "", "scale scenario: use this folder instead of a temporary one and keep it; a size N whose folder DIR/N already holds a database is not seeded again (comparing binaries on the same data: seeding 100k takes minutes)")
	fs.IntVar(&c.listenSessions, "listen-sessions", 0, "also run the /v4/listen socket scenario with this many concurrent sessions (one user each)")
	fs.StringVar(&c.listenMode, "listen-mode", "custom", "socket scenario: custom (the phone transcribes: suggested_transcript), scripted (the scripted route hears each burst of tone) or speech (the server's own routes hear a Festival phrase)")
	fs.IntVar(&c.uploadMB, "upload-mb", 0, "also send one recording of this many MB to /v1/stt/transcribe (scripted route) and report throughput and memory")
	fs.DurationVar(&c.listenBatch, "listen-batch", 100*time.Millisecond, "socket scenario: send the 20 ms frames in batches this long")
	fs.IntVar(&c.wordsSentences, "words-sentences", 100, "words-lost scenario: how many Festival sentences to send, each as its own recording (at most "+strconv.Itoa(len(wordsSentences))+")")
	fs.IntVar(&c.wordsSessions, "words-sessions", 4, "words-lost scenario: recordings streamed at once (and sessions per SIGTERM)")
	fs.StringVar(&c.realConditions, "real-conditions", strings.Join(realConditions, ","), "realspeech scenario: conditions to measure")
	fs.StringVar(&c.realCodecs, "real-codecs", strings.Join(realCodecNames, ","), "realspeech scenario: live codecs to measure")
	fs.IntVar(&c.realClips, "real-clips", 0, "realspeech scenario: clips to use, spread over the corpus (0: all 61)")
	fs.Float64Var(&c.realPause, "real-pause", 2, "realspeech scenario: seconds of silence between clips")
	fs.Float64Var(&c.realSpeed, "real-speed", 1, "realspeech scenario: live audio is sent this many times faster than real time")
	fs.IntVar(&c.searchOthers, "search-distractors", 1000, "transcript-search scenario: generated conversations created beside the labelled ones")
	fs.IntVar(&c.realSessions, "real-sessions", 2, "realspeech scenario: live sessions at once")
	fs.IntVar(&c.startupRounds, "startup-rounds", 15, "startup scenario: rounds, each starting the echo floor, hearth on an empty data folder and hearth on a used one")
	fs.StringVar(&c.echoFloor, "echo-floor", "", "startup scenario: the echo floor's binary (default: built from ./cmd/hearth-bench/echofloor with go build)")
	fs.DurationVar(&c.quietWait, "quiet-wait", 0, "before each measured pass (the startup scenario, each listen pass) wait up to this long for a quiet machine (load average < 1); the load is reported either way")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: hearth-bench [flags]\n\nStarts `hearth serve`, drives load against it and prints a markdown report.\n\n"+
			"-scenarios words-lost sends Festival sentences to /v4/listen, each a recording that ends the hard way (the app closes,\n"+
			"a 5 s stall then a close, the owner ends it, SIGTERM to the server), in pcm16 and opus_fs320, and counts the words\n"+
			"the server's own speech route (PocketSphinx) heard in the same audio that the stored transcript lacks.\n"+
			"It needs festival (festvox-us-slt-hts), sox and ffmpeg, and a hearth built with PocketSphinx.\n\n"+
			"-scenarios realspeech measures word error rates on recorded human speech (appliance/stt/realspeech) in noise, babble\n"+
			"and at a low level: the engine alone (PocketSphinx in this process) against POST /v1/stt/transcribe and /v4/listen\n"+
			"in pcm16, pcm8, opus_fs320, lc3 and aac. It needs the packages of scripts/deps.sh test and PocketSphinx in both builds.\n\n"+
			"-scenarios transcript-search creates a labelled set of conversations among -search-distractors others and scores\n"+
			"its queries (words, names, phrases, paraphrases) at 5 through the console's search and the MCP tool's REST twin.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	if c.duration <= 0 {
		return c, errors.New("-duration must be positive")
	}
	if c.concurrency < 1 {
		return c, errors.New("-concurrency must be at least 1")
	}
	if c.segments < 1 || c.segments > 500 {
		return c, errors.New("-segments must be between 1 and 500 (the API's limit)")
	}
	if c.timeout <= 0 {
		return c, errors.New("-timeout must be positive")
	}
	if c.driverProcs < 0 {
		return c, errors.New("-driver-procs must be 0 (all) or more")
	}
	host, port, err := net.SplitHostPort(c.addr)
	if err != nil {
		return c, fmt.Errorf("-addr %q is not HOST:PORT: %w", c.addr, err)
	}
	if host != "127.0.0.1" {
		return c, fmt.Errorf("-addr host must be 127.0.0.1 (the driver only targets loopback), got %q", host)
	}
	if port == "" {
		return c, fmt.Errorf("-addr %q has no port (use 127.0.0.1:0 for a free one)", c.addr)
	}
	if c.scale != "" {
		if _, err := parseSizes(c.scale); err != nil {
			return c, err
		}
	}
	switch strings.TrimSpace(c.scenarios) {
	case "listen":
		c.listenOnly = true
		if c.listenSessions == 0 && c.uploadMB == 0 {
			return c, errors.New("-scenarios listen needs -listen-sessions N or -upload-mb N")
		}
	case "words-lost":
		c.listenOnly, c.wordsLost = true, true
		if c.wordsSentences < 1 || c.wordsSentences > len(wordsSentences) {
			return c, fmt.Errorf("-words-sentences must be between 1 and %d", len(wordsSentences))
		}
		if c.wordsSessions < 1 || c.wordsSessions > 16 {
			return c, errors.New("-words-sessions must be between 1 and 16")
		}
	case "startup":
		c.listenOnly, c.startup = true, true
		if c.startupRounds < 1 {
			return c, errors.New("-startup-rounds must be at least 1")
		}
	case "transcript-search":
		c.listenOnly, c.transcriptSearch = true, true
		if c.searchOthers < 0 || c.searchOthers > 1_000_000 {
			return c, errors.New("-search-distractors must be between 0 and 1000000")
		}
	case "realspeech":
		c.listenOnly, c.realSpeech = true, true
		if c.realConds, err = parseRealList("real-conditions", c.realConditions, realConditions); err != nil {
			return c, err
		}
		if c.realCodecList, err = parseRealList("real-codecs", c.realCodecs, realCodecNames); err != nil {
			return c, err
		}
		if c.realSpeed <= 0 || c.realSessions < 1 || c.realPause < 0 || c.realClips < 0 {
			return c, errors.New("-real-speed and -real-sessions must be positive, -real-pause and -real-clips not negative")
		}
	default:
		if _, err := selectScenarios(c.scenarios); err != nil {
			return c, err
		}
	}
	if c.uploadMB < 0 || c.uploadMB > 200 {
		return c, errors.New("-upload-mb must be between 0 and 200 (the endpoint's limit)")
	}
	if c.listenSessions < 0 || c.listenSessions > 10000 {
		return c, errors.New("-listen-sessions must be between 0 and 10000")
	}
	if c.listenMode != "custom" && c.listenMode != "scripted" && c.listenMode != "speech" {
		return c, fmt.Errorf("-listen-mode %q is not custom, scripted or speech", c.listenMode)
	}
	if c.listenBatch < 20*time.Millisecond {
		return c, errors.New("-listen-batch must be at least 20ms (one frame)")
	}
	return c, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hearth-bench:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err = run(ctx, cfg, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hearth-bench:", err)
		os.Exit(1)
	}
}

// run is the whole benchmark. Cleanup (server stop, temp dir removal) runs in
// defers, so every return path — including an interrupted context — cleans up.
func run(ctx context.Context, cfg config, stdout, stderr io.Writer) (err error) {
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "hearth-bench: "+format+"\n", args...) }

	var scens []scenario
	if !cfg.listenOnly {
		if scens, err = selectScenarios(cfg.scenarios); err != nil {
			return err
		}
	}
	hearth, err := filepath.Abs(cfg.hearth)
	if err != nil {
		return err
	}
	if st, err := os.Stat(hearth); err != nil {
		return fmt.Errorf("hearth binary: %w (build it with `make build`)", err)
	} else if st.IsDir() {
		return fmt.Errorf("hearth binary %s is a directory", hearth)
	}

	if cfg.scale != "" {
		return runScale(ctx, cfg, hearth, stdout, stderr)
	}
	if cfg.startup {
		return runStartup(ctx, cfg, hearth, stdout, stderr)
	}

	dataDir, err := os.MkdirTemp("", "hearth-bench-*")
	if err != nil {
		return err
	}
	defer func() {
		if cfg.keep {
			logf("keeping data directory %s", dataDir)
			return
		}
		if rerr := os.RemoveAll(dataDir); rerr != nil {
			logf("removing %s: %v", dataDir, rerr)
		}
	}()

	addr, err := resolveAddr(cfg.addr)
	if err != nil {
		return err
	}

	rep := &report{
		cfg:     cfg,
		command: commandLine(os.Args),
		machine: machineInfo(),
		started: time.Now().UTC(),
	}

	// The scenarios below add to the server's environment for this run only.
	saved := serverEnv
	serverEnv = slices.Clone(serverEnv)
	defer func() { serverEnv = saved }()
	var loop opusLoop
	if cfg.listenSessions > 0 {
		if cfg.listenMode == "speech" {
			loop, err = makeSpeechLoop(ctx, dataDir)
		} else {
			loop, err = makeOpusLoop(ctx)
		}
		if err != nil {
			return err
		}
		// Every session holds a connection; leave room for the HTTP ones.
		// They all come from 127.0.0.1, which the per-address cap (64 by
		// default) would otherwise close past its 64th.
		conns := strconv.Itoa(cfg.listenSessions + 256)
		serverEnv = append(serverEnv, "HEARTH_MAX_CONNS="+conns, "HEARTH_MAX_CONNS_PER_ADDR="+conns)
	}
	if cfg.listenSessions > 0 && cfg.listenMode == "scripted" || cfg.uploadMB > 0 {
		script, err := writeListenScript(dataDir)
		if err != nil {
			return err
		}
		serverEnv = append(serverEnv, "HEARTH_STT_SCRIPT="+script)
	}

	logf("starting %s serve --data %s --addr %s", hearth, dataDir, addr)
	srv, err := startServer(ctx, hearth, dataDir, addr, 30*time.Second)
	if err != nil {
		return err
	}
	stopped := false
	stopServer := func() error {
		if stopped {
			return nil
		}
		stopped = true
		d, serr := srv.stop(15 * time.Second)
		rep.shutdown = d
		rep.exitStatus = srv.exitStatus()
		if serr != nil {
			logf("stopping server: %v", serr)
			return serr
		}
		logf("server stopped %s after SIGINT (%s)", fmtDur(d), rep.exitStatus)
		return nil
	}
	defer func() {
		if serr := stopServer(); serr != nil && err == nil {
			err = serr
		}
	}()
	rep.startToHealthy = srv.startToHealthy
	logf("healthy after %s", fmtDur(srv.startToHealthy))

	if err := sleepCtx(ctx, time.Second); err != nil {
		return interrupted(err)
	}
	rep.idleRSS = readRSS(srv.pid())

	uid, err := srv.cli(ctx, "users", "add", "--data", dataDir, "--name", "bench")
	if err != nil {
		return interrupted(err)
	}
	key, err := srv.cli(ctx, "keys", "create", "--data", dataDir, "--user", uid, "--kind", "dev",
		"--scopes", "conversations:read,conversations:write,memories:read,memories:write")
	if err != nil {
		return interrupted(err)
	}
	mcpKey, err := srv.cli(ctx, "keys", "create", "--data", dataDir, "--user", uid, "--kind", "mcp")
	if err != nil {
		return interrupted(err)
	}
	logf("user %s and a dev key created", uid)

	client := newHTTPClient(cfg.concurrency, cfg.timeout)
	defer client.CloseIdleConnections()
	shared := newSharedState(cfg.segments)
	if needsMemories(scens) && cfg.memories > 0 {
		logf("seeding %d memories for the MCP scenarios", cfg.memories)
		t0 := time.Now()
		if err := seedMemories(ctx, client, "http://"+addr, key, cfg.memories); err != nil {
			return interrupted(err)
		}
		rep.seeded = fmt.Sprintf("%d memories seeded through the batch API in %s", cfg.memories, fmtDur(time.Since(t0)))
		logf("%s", rep.seeded)
	}
	for _, sc := range scens {
		if ctx.Err() != nil {
			break
		}
		if sc.skipUnless != nil {
			if why := sc.skipUnless(shared); why != "" {
				logf("scenario %s skipped: %s", sc.name, why)
				rep.results = append(rep.results, result{name: sc.name, skipped: why})
				continue
			}
		}
		if waited, err := waitIndexed(ctx, client, "http://"+addr, 2*time.Minute); err != nil {
			logf("index did not catch up before %s: %v", sc.name, err)
		} else if waited > 100*time.Millisecond {
			logf("waited %s for the search index to catch up before %s", fmtDur(waited), sc.name)
		}
		logf("scenario %s: %d workers for %s", sc.name, cfg.concurrency, cfg.duration)
		res := runScenario(ctx, sc, loadOptions{
			concurrency: cfg.concurrency,
			duration:    cfg.duration,
			client:      client,
			baseURL:     "http://" + addr,
			key:         key,
			mcpKey:      mcpKey,
			shared:      shared,
			errLog:      stderr,
			procs:       cfg.driverProcs,
		})
		logf("scenario %s: %d requests, %d errors, %.1f req/s", sc.name, res.requests, res.errors, res.rate())
		if sc.indexes && ctx.Err() == nil {
			waited, err := waitIndexed(ctx, client, "http://"+addr, 2*time.Minute)
			res.indexWait = waited
			if err != nil {
				res.indexErr = err.Error()
				logf("index did not catch up after %s: %v", sc.name, err)
			} else {
				logf("scenario %s: the index caught up %s after the last request; %.1f/s including the indexing",
					sc.name, fmtDur(waited), res.indexedRate())
			}
		}
		rep.results = append(rep.results, res)
	}
	if cfg.listenSessions > 0 && ctx.Err() == nil {
		users, err := addUsers(ctx, srv, dataDir, cfg.listenSessions)
		if err != nil {
			return interrupted(err)
		}
		lo := listenOptions{sessions: cfg.listenSessions, mode: cfg.listenMode, duration: cfg.duration,
			baseURL: "http://" + addr, users: users, loop: loop, batch: cfg.listenBatch, pid: srv.pid(), idleRSS: readRSS(srv.pid())}
		lo.load, lo.quiet = waitQuiet(ctx, cfg.quietWait, logf)
		logf("socket scenario: %d sessions (%s) for %s", lo.sessions, lo.mode, lo.duration)
		lr := runListen(ctx, lo)
		rep.listen = lr.markdown(lo, runtime.NumCPU())
		logf("socket scenario: %d/%d connected, %d dropped, %d segments", lr.connected, lr.sessions, lr.dropped, lr.segments)
	}
	if cfg.uploadMB > 0 && ctx.Err() == nil {
		wav, err := makeUploadWAV(dataDir, int64(cfg.uploadMB)*1_000_000)
		if err != nil {
			return err
		}
		token, err := srv.cli(ctx, "token", "--data", dataDir, "--user", uid)
		if err != nil {
			return interrupted(err)
		}
		logf("upload scenario: %d MB to /v1/stt/transcribe", cfg.uploadMB)
		ur := runUpload(ctx, "http://"+addr, token, wav, srv.pid())
		os.Remove(wav)
		rep.listen += ur.markdown()
		logf("upload scenario: %d in %s", ur.status, ur.elapsed.Round(time.Millisecond))
	}
	if cfg.wordsLost && ctx.Err() == nil {
		wo := wordsOptions{sentences: cfg.wordsSentences, sessions: cfg.wordsSessions, batch: cfg.listenBatch,
			baseURL: "http://" + addr, dir: dataDir, dataDir: dataDir, cli: srv.cli,
			sigterm: func() error {
				if err := terminateProcess(srv.cmd.Process); err != nil {
					return fmt.Errorf("SIGTERM: %w", err)
				}
				t0 := time.Now()
				select {
				case <-srv.exited:
					logf("server exited %s after SIGTERM (%s)", fmtDur(time.Since(t0)), srv.exitStatus())
					return nil
				case <-time.After(30 * time.Second):
					return fmt.Errorf("the server did not exit within 30 s of SIGTERM%s", srv.logTail())
				}
			},
			restart: func() error {
				s, err := startServer(ctx, hearth, dataDir, addr, 30*time.Second)
				if err != nil {
					return err
				}
				srv = s
				return nil
			}}
		wr, err := runWordsLost(ctx, wo, logf)
		if err != nil {
			return interrupted(err)
		}
		rep.listen += wr.markdown()
	}
	if cfg.transcriptSearch && ctx.Err() == nil {
		token, err := srv.cli(ctx, "token", "--data", dataDir, "--user", uid)
		if err != nil {
			return interrupted(err)
		}
		sr, err := runTranscriptSearch(ctx, searchOptions{baseURL: "http://" + addr, devKey: key, mcpKey: mcpKey, token: token,
			distractors: cfg.searchOthers, concurrency: cfg.concurrency, client: client}, logf)
		if err != nil {
			return interrupted(err)
		}
		rep.listen += sr.markdown()
	}
	if cfg.realSpeech && ctx.Err() == nil {
		ro := realOptions{conditions: cfg.realConds, codecs: cfg.realCodecList, clips: cfg.realClips, pause: cfg.realPause,
			speed: cfg.realSpeed, sessions: cfg.realSessions, baseURL: "http://" + addr, dir: dataDir, dataDir: dataDir, cli: srv.cli,
			serverLog: func() string { return srv.log.String() }}
		rr, err := runRealSpeech(ctx, ro, logf)
		rep.listen += rr.markdown()
		if err != nil {
			return interrupted(err)
		}
	}
	if ctx.Err() != nil {
		rep.interrupted = true
	}
	rep.afterRSS = readRSS(srv.pid())
	rep.afterAnonRSS = readAnonRSS(srv.pid())
	rep.peakRSS = readPeakRSS(srv.pid())
	client.CloseIdleConnections()
	stopErr := stopServer()

	md := rep.markdown()
	if _, err := io.WriteString(stdout, md); err != nil {
		return err
	}
	if cfg.out != "" {
		if err := os.WriteFile(cfg.out, []byte(md), 0o644); err != nil {
			return fmt.Errorf("writing -out: %w", err)
		}
		logf("report written to %s", cfg.out)
	}
	if rep.interrupted {
		return errors.New("interrupted; partial results above")
	}
	return stopErr
}

func interrupted(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// resolveAddr turns 127.0.0.1:0 into 127.0.0.1:<free port> by listening on
// port 0 and closing the listener again.
func resolveAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	if port != "0" {
		return addr, nil
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("picking a free port: %w", err)
	}
	a := ln.Addr().String()
	if err := ln.Close(); err != nil {
		return "", err
	}
	return a, nil
}

// commandLine renders the driver's invocation as a shell command. argv[0] is
// reduced to its base name because `go run` puts the binary in a throw-away
// build directory.
func commandLine(args []string) string {
	if len(args) == 0 {
		return "hearth-bench"
	}
	parts := []string{filepath.Base(args[0])}
	for _, a := range args[1:] {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// addUsers creates n users through the CLI, a few at a time, each with an
// ID token (each session of the socket scenario is its own wearable and
// owner, and the socket takes no connection without a credential).
func addUsers(ctx context.Context, srv *server, dataDir string, n int) ([]wearer, error) {
	users := make([]wearer, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			id, err := srv.cli(ctx, "users", "add", "--data", dataDir, "--name", "wearer "+strconv.Itoa(i))
			if err != nil {
				errs <- err
				return
			}
			token, err := srv.cli(ctx, "token", "--data", dataDir, "--user", id)
			if err != nil {
				errs <- err
				return
			}
			users[i] = wearer{uid: id, token: token}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("create the socket scenario's users: %w", err)
	}
	return users, nil
}
