package api

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/logring"
)

// System describes the running appliance for the console's System page
// (built in cmd/hearth, which knows its version and start).
type System struct {
	Version   string
	StartedAt time.Time
	// Routes are the speech routes' names in the order they are tried.
	Routes []string
	// Log returns the appliance's recent log records, oldest first; nil
	// shows none.
	Log func() []logring.Record
}

// errBackupRunning answers a backup asked for while one is being made:
// each copies the whole database, and two at once would only halve the
// speed of both.
var errBackupRunning = appliance.Errorf(appliance.ECONFLICT, "A backup is already being made; try again when it is done")

// consoleSystemRoutes serves the console's System page: what the box is
// running and holds, its recent log, and a backup download.
func (s *Server) consoleSystemRoutes(g *echo.Group) {
	g.GET("/system", s.consoleSystem)
	g.GET("/system/backup", s.consoleBackup, s.ownerOnly("download a backup (it holds every member's data)", "backup downloaded", "", true))
}

type systemReply struct {
	Version       string        `json:"version"`
	StartedAt     string        `json:"started_at"`
	UptimeSeconds int64         `json:"uptime_seconds"`
	Database      databaseReply `json:"database"`
	// Audio is the signed-in user's kept audio against their quota.
	Audio *appliance.AudioStatus `json:"audio,omitempty"`
	// The rest is the box's, shown to the owner alone (OwnerOnly tells a
	// member's console why it is missing).
	OwnerOnly   bool              `json:"owner_only,omitempty"`
	DataDir     string            `json:"data_dir,omitempty"`
	Disk        *diskReply        `json:"disk,omitempty"`
	SearchIndex *searchIndexReply `json:"search_index,omitempty"`
	Routes      []string          `json:"routes,omitempty"`
	Log         []logring.Record  `json:"log,omitempty"`
}

type diskReply struct {
	FreeBytes  uint64 `json:"free_bytes"`
	TotalBytes uint64 `json:"total_bytes"`
}

type databaseReply struct {
	Bytes         int64 `json:"bytes,omitempty"`
	Conversations int   `json:"conversations"`
	Memories      int   `json:"memories"`
}

type searchIndexReply struct {
	Model       string  `json:"model"`
	Embedded    float64 `json:"embedded"`
	Pending     int     `json:"pending"`
	Reembedding bool    `json:"reembedding"`
	Error       string  `json:"error,omitempty"`
}

// GET /console/api/system. The version, uptime and counts (the signed-in
// user's own) are everyone's; the data folder, disk, database size, routes,
// search index and log are the box's, which only the owner sees.
func (s *Server) consoleSystem(c echo.Context) error {
	ctx := c.Request().Context()
	now := s.now()
	out := systemReply{Version: s.system.Version}
	if !s.system.StartedAt.IsZero() {
		out.StartedAt = s.system.StartedAt.UTC().Format(time.RFC3339)
		out.UptimeSeconds = max(int64(now.Sub(s.system.StartedAt).Seconds()), 0)
	}
	var err error
	if out.Database.Conversations, out.Database.Memories, err = s.store.CountUserItems(ctx, userID(c)); err != nil {
		return err
	}
	if s.recordings != nil {
		st := s.recordings.Status(userID(c))
		out.Audio = &st
	}
	if owner, err := s.isOwner(c); err != nil {
		return err
	} else if !owner {
		if out.Audio != nil {
			out.Audio.Dir = "" // the box's, the owner's to see
		}
		out.OwnerOnly = true
		return c.JSON(http.StatusOK, out)
	}
	out.DataDir, out.Routes, out.Log = s.cfg.DataDir, s.routesInEffect(), []logring.Record{}
	out.Disk = &diskReply{}
	if out.Disk.FreeBytes, out.Disk.TotalBytes, err = diskUsage(s.dataDir()); err != nil {
		return err
	}
	if out.Database.Bytes, err = s.store.DatabaseBytes(); err != nil {
		return err
	}
	if s.progress != nil {
		p := s.progress()
		out.SearchIndex = &searchIndexReply{Model: p.Model, Embedded: embeddedShare(p), Pending: max(p.Total-p.Embedded, 0), Reembedding: p.Reembed}
		if p.LastError != "" {
			// The error's own text is in the log; it may name an
			// endpoint, which the reply has no need to repeat.
			out.SearchIndex.Error = "embedding is failing; see the log"
		}
	}
	if s.system.Log != nil {
		out.Log = s.system.Log()
	}
	return c.JSON(http.StatusOK, out)
}

// dataDir is where the appliance keeps its files ("." when unset, as in
// tests that give no configuration).
func (s *Server) dataDir() string {
	if s.cfg.DataDir == "" {
		return "."
	}
	return s.cfg.DataDir
}

// backupDirPrefix names the private folders console backups are made in.
const backupDirPrefix = ".console-backup-"

// RemoveBackupLeftovers deletes the folders of console backups that a
// crash or power cut interrupted. It is called at start, with the data
// folder's lock held, so no backup of this appliance is running.
func RemoveBackupLeftovers(dataDir string) (int, error) {
	left, err := filepath.Glob(filepath.Join(dataDir, backupDirPrefix+"*"))
	if err != nil {
		return 0, err
	}
	for _, dir := range left {
		if err := os.RemoveAll(dir); err != nil {
			return 0, fmt.Errorf("remove an interrupted backup: %w", err)
		}
	}
	return len(left), nil
}

// GET /console/api/system/backup: a consistent copy of the database, made
// while the appliance keeps serving, as a download. The copy holds every
// user's data, so only the owner who claimed the appliance may take it.
// It is made in a private folder in the data folder (the same disk, never
// a shared /tmp), streamed, and deleted.
func (s *Server) consoleBackup(c echo.Context) error {
	ctx := c.Request().Context()
	if !s.backingUp.CompareAndSwap(false, true) {
		return errBackupRunning
	}
	defer s.backingUp.Store(false)

	dir, err := os.MkdirTemp(s.dataDir(), backupDirPrefix)
	if err != nil {
		return fmt.Errorf("backup folder: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hearth.db")
	t0 := time.Now()
	if err := s.store.Backup(ctx, path, nil); err != nil {
		if ctx.Err() != nil {
			// The browser left (or the appliance is stopping): nobody
			// waits for an answer, and nothing failed.
			s.log.Info("console backup abandoned", "ms", time.Since(t0).Milliseconds())
			return nil
		}
		return fmt.Errorf("backup: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open backup: %w", err)
	}
	defer f.Close()
	// Where the system lets an open file be unlinked (not Windows), the
	// copy leaves the data folder before the first byte is sent: a
	// download cut short or a crash mid-stream leaves nothing behind. The
	// deferred RemoveAll above is the fallback, after Close.
	_ = os.RemoveAll(dir)
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("open backup: %w", err)
	}
	name := "hearth-backup-" + s.now().UTC().Format("20060102-150405") + ".db"
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/vnd.sqlite3")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	h.Set(echo.HeaderContentLength, fmt.Sprint(st.Size()))
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(http.StatusOK)
	n, err := io.Copy(c.Response(), f)
	if err != nil {
		// The status is sent: the client sees a short download, and the
		// log says why.
		s.log.Warn("console backup: download cut short", "sent", n, "bytes", st.Size(), "err", err)
		return nil
	}
	s.log.Info("console backup downloaded", "bytes", st.Size(), "ms", time.Since(t0).Milliseconds())
	return nil
}
