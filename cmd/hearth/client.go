package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/audio"
	"github.com/hearth-appliance/hearth/appliance/idtoken"
)

// The command-line clients: `hearth listen --file` streams a recording to
// any appliance's /v4/listen as a wearable would, and `hearth transcribe`
// sends one to /v1/stt/transcribe. Both print what comes back, for people
// and for scripts (--json).

// clientFlags are what both clients need to reach an appliance as a user.
type clientFlags struct {
	url, token, data, user string
	json                   bool
	ca                     string
	// deviceKey: the command talks only to the live socket, which a
	// device key (hearth keys create --kind stt) opens as an ID token does.
	deviceKey bool
}

func (c *clientFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) {
	fs.StringVar(&c.url, "url", "http://127.0.0.1:8080", "the appliance's address")
	fs.StringVar(&c.token, "token", "", "an ID token (hearth token); or --data and --user to mint one on the appliance's own box")
	fs.StringVar(&c.data, "data", "", "the appliance's data directory, to mint a token for --user (on the box itself)")
	fs.StringVar(&c.user, "user", "", "the user to mint a token for, with --data; with a device key as listen's --token, the key's user")
	fs.BoolVar(&c.json, "json", false, "print what arrives as JSON lines")
	fs.StringVar(&c.ca, "ca", "", "trust this CA certificate (PEM) for an https:// --url, e.g. the appliance's /lan/ca.crt")
}

// base is --url as an http(s) address: a ws(s):// one names the same
// appliance (the live socket's scheme), and a trailing /v4/listen or
// slash is dropped.
func (c *clientFlags) base() (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(strings.TrimRight(c.url, "/"), "/v4/listen"))
	if err == nil {
		switch u.Scheme {
		case "ws":
			u.Scheme = "http"
		case "wss":
			u.Scheme = "https"
		}
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usageErr("--url %q is not an http(s) or ws(s) address such as http://hearth.local:8080", c.url)
	}
	return u, nil
}

// credentials returns the user id and token: the token given, or one
// minted from the data directory's identity key.
func (c *clientFlags) credentials(ctx context.Context) (uid, token string, err error) {
	if c.token != "" {
		kind, _, ok := appliance.ParseKey(c.token)
		if ok && kind == appliance.KeyKindSTT && c.deviceKey {
			// A device key does not say whose it is, and the socket's uid
			// must name its user: --user gives it.
			if c.user == "" || c.data != "" {
				return "", "", usageErr("--token: a device key needs --user UID, the id of the user it was made for (hearth users list), and no --data")
			}
			return c.user, c.token, nil
		}
		if ok || kind != "" {
			return "", "", usageErr("--token: that is a %s key; this command takes an ID token: run `hearth token --data DIR --user UID` "+
				"on the appliance's box and pass what it prints (or give --data and --user there instead of --token)", kind)
		}
		uid, err = idtoken.Subject(c.token)
		if err != nil {
			return "", "", usageErr("--token: %v (an ID token is what `hearth token --data DIR --user UID` prints)", err)
		}
		return uid, c.token, nil
	}
	if c.data == "" || c.user == "" {
		return "", "", usageErr("give --token, or --data and --user on the appliance's own box")
	}
	db, u, err := openForUser(ctx, c.data, c.user)
	if err != nil {
		return "", "", err
	}
	db.Close()
	signer, err := idtoken.LoadOrCreate(c.data)
	if err != nil {
		return "", "", err
	}
	tok, err := signer.Issue(u.ID, time.Hour)
	return u.ID, tok, err
}

// runListenClient streams a recording to /v4/listen and prints segments
// and events until the recording is processed (with --end) or the stream
// has been sent and flushed.
func runListenClient(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("listen", stderr)
	cf := clientFlags{deviceKey: true}
	cf.register(fs)
	file := fs.String("file", "", "the recording to stream (WAV, Ogg Opus; more with libavformat)")
	codec := fs.String("codec", "pcm16", "how to send it: pcm16, pcm8 (what a wearable sends without an encoder) or opus (20 ms packets at 16 kHz)")
	speed := fs.Float64("speed", 1, "× real time; 0 sends as fast as the socket takes it")
	language := fs.String("language", "en", "the language spoken")
	end := fs.Bool("end", false, "end the recording when the file is sent and wait for the processed conversation")
	var mf micFlags
	mf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *file == "" && !mf.on {
		return usageErr("--file is required, or --mic")
	}
	if *file != "" && mf.on {
		return usageErr("give --file or --mic, not both")
	}
	rate, enc, err := clientCodec(*codec)
	if err != nil {
		return err
	}
	if *speed < 0 {
		return usageErr("--speed must not be negative")
	}
	uid, token, err := cf.credentials(ctx)
	if err != nil {
		return err
	}
	if *end {
		if kind, _, _ := appliance.ParseKey(token); kind == appliance.KeyKindSTT {
			// Ending a recording is POST /v1/conversations, which a device
			// key does not open: without --end the appliance ends it after
			// its --silence-timeout.
			return usageErr("--end needs an ID token (hearth token): a device key opens only the live socket, so leave --end out and the recording ends after the appliance's --silence-timeout")
		}
	}
	var src audio.Source
	if mf.on {
		// The microphone paces itself: send as it arrives.
		*speed = 0
		src, err = mf.open(ctx)
	} else {
		src, err = audio.OpenFile(*file)
	}
	if err != nil {
		return err
	}
	defer src.Close()

	base, err := cf.base()
	if err != nil {
		return err
	}
	ws := *base
	ws.Scheme = map[string]string{"http": "ws", "https": "wss"}[base.Scheme]
	ws.Path += "/v4/listen"
	ws.RawQuery = url.Values{"uid": {uid}, "codec": {*codec}, "sample_rate": {fmt.Sprint(rate)}, "language": {*language},
		"conversation_timeout": {"120"}}.Encode()
	dialer, httpc, err := cf.transport()
	if err != nil {
		return err
	}
	conn, resp, err := dialer.DialContext(ctx, ws.String(), http.Header{"Authorization": {"Bearer " + token}})
	if err != nil {
		if resp != nil {
			return fmt.Errorf("connect to %s: %s", base.Host, resp.Status)
		}
		return fmt.Errorf("connect to %s: %w", base.Host, err)
	}
	defer conn.Close()

	p := printer{w: stdout, json: cf.json}
	events := make(chan map[string]any, 64)
	closed := make(chan error, 1)
	go func() {
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				closed <- err
				return
			}
			p.message(b, events)
		}
	}()

	if err := sendRecording(ctx, conn, src, rate, enc, *speed); err != nil {
		// A send fails when the appliance has closed the session: its
		// close says why, the broken pipe does not.
		select {
		case cerr := <-closed:
			if cerr := closedErr(cerr); cerr != nil {
				return cerr
			}
		case <-time.After(time.Second):
		}
		return err
	}
	// Let the last words be recognised and flushed.
	wait := time.NewTimer(3 * time.Second)
	select {
	case <-wait.C:
	case err := <-closed:
		return closedErr(err)
	case <-ctx.Done():
		return ctx.Err()
	}
	if !*end {
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		return nil
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", base.String()+"/v1/conversations", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	r, err := httpc.Do(req)
	if err != nil {
		return fmt.Errorf("end the recording: %w", err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return fmt.Errorf("end the recording: %s", r.Status)
	}
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case e := <-events:
			if e["type"] == "memory_created" {
				conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
				return nil
			}
		case err := <-closed:
			return closedErr(err)
		case <-timeout:
			return errors.New("the recording was not processed within 2 minutes")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// sendRecording streams 20 ms frames at rate, encoded by enc, paced at
// speed × real time.
func sendRecording(ctx context.Context, conn *websocket.Conn, src audio.Source, rate int, enc frameEncoder, speed float64) error {
	start := time.Now()
	sent := 0.0 // seconds of audio
	return encodeRecording(src, rate, enc, func(frame []byte, samples int) error {
		if err := conn.WriteMessage(websocket.BinaryMessage, frame); err != nil {
			return fmt.Errorf("send audio: %w", err)
		}
		sent += float64(samples) / float64(rate)
		if speed > 0 {
			if ahead := time.Duration(sent/speed*float64(time.Second)) - time.Since(start); ahead > 0 {
				select {
				case <-time.After(ahead):
				case <-ctx.Done():
					return ctx.Err()
				}
			}
		}
		return nil
	})
}

func closedErr(err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		if ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway {
			return nil
		}
		return fmt.Errorf("the appliance closed the session: %d %s", ce.Code, ce.Text)
	}
	return fmt.Errorf("the session ended: %w", err)
}

// printer shows what arrives: one line per segment and per event, or the
// messages themselves as JSON lines.
type printer struct {
	w    io.Writer
	json bool
}

func (p printer) message(b []byte, events chan<- map[string]any) {
	if string(b) == "ping" {
		return
	}
	if len(b) > 0 && b[0] == '[' {
		var segs []appliance.TranscriptSegment
		if json.Unmarshal(b, &segs) != nil {
			return
		}
		for _, s := range segs {
			if p.json {
				line, _ := json.Marshal(map[string]any{"type": "segment", "segment": s})
				fmt.Fprintln(p.w, string(line))
				continue
			}
			fmt.Fprintf(p.w, "[%s–%s] %s: %s\n", clock(s.Start), clock(s.End), s.Speaker, s.Text)
		}
		return
	}
	var e map[string]any
	if json.Unmarshal(b, &e) != nil {
		return
	}
	select {
	case events <- e:
	default:
	}
	if p.json {
		fmt.Fprintln(p.w, string(b))
		return
	}
	switch e["type"] {
	case "service_status":
		fmt.Fprintf(p.w, "· %s %v\n", e["status"], orEmpty(e["provider"]))
	case "memory_created":
		m, _ := e["memory"].(map[string]any)
		st, _ := m["structured"].(map[string]any)
		fmt.Fprintf(p.w, "· processed: %v %v\n", orEmpty(st["emoji"]), orEmpty(st["title"]))
	case "segments_deleted", "last_memory":
	default:
		fmt.Fprintf(p.w, "· %v\n", e["type"])
	}
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}

func clock(sec float64) string {
	d := time.Duration(sec * float64(time.Second))
	return fmt.Sprintf("%02d:%04.1f", int(d.Minutes()), sec-60*float64(int(d.Minutes())))
}

// runTranscribeClient sends a recording to /v1/stt/transcribe and prints
// the transcript.
func runTranscribeClient(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("transcribe", stderr)
	var cf clientFlags
	cf.register(fs)
	diarize := fs.Bool("diarize", true, "label speakers")
	// The file may come first: hearth transcribe memo.wav --url ...
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if file == "" && fs.NArg() > 0 {
		file = fs.Arg(0)
	}
	if file == "" {
		return usageErr("name the recording: hearth transcribe FILE [--url URL] [--token T]")
	}
	_, token, err := cf.credentials(ctx)
	if err != nil {
		return err
	}
	base, err := cf.base()
	if err != nil {
		return err
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", filepath.Base(file))
		if err == nil {
			_, err = io.Copy(part, f)
		}
		if err == nil {
			err = mw.WriteField("diarize", fmt.Sprint(*diarize))
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(ctx, "POST", base.String()+"/v1/stt/transcribe", pr)
	if err != nil {
		return usageErr("--url: %v", err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	_, httpc, err := cf.transport()
	if err != nil {
		return err
	}
	resp, err := httpc.Do(req)
	if err != nil {
		return fmt.Errorf("send %s: %w", file, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Detail any }
		json.Unmarshal(body, &e)
		return fmt.Errorf("%s: %v", resp.Status, e.Detail)
	}
	if cf.json {
		_, err = stdout.Write(append(body, '\n'))
		return err
	}
	var res struct {
		Text     string
		Segments []struct {
			Start, End float64
			Text       string
			Speaker    string
		}
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return fmt.Errorf("read the reply: %w", err)
	}
	for _, s := range res.Segments {
		if s.Speaker != "" {
			fmt.Fprintf(stdout, "[%s–%s] %s: %s\n", clock(s.Start), clock(s.End), s.Speaker, s.Text)
		} else {
			fmt.Fprintf(stdout, "[%s–%s] %s\n", clock(s.Start), clock(s.End), s.Text)
		}
	}
	return nil
}
