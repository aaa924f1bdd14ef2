package models

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Store is the models folder (DATA/models) and where models come from.
type Store struct {
	Dir     string
	BaseURL string // DefaultBaseURL when empty
	Catalog []Model
	Client  *http.Client
}

// source is where m is downloaded from: the mirror when one is set, else
// the model's own address, else whisper.cpp's repository.
func (s *Store) source(m Model) string {
	base := strings.TrimRight(s.BaseURL, "/")
	switch {
	case base != "" && base != DefaultBaseURL:
		return base + "/" + m.File()
	case m.URL != "":
		return m.URL
	}
	return DefaultBaseURL + "/" + m.File()
}

// Find names a model of the catalog.
func (s *Store) Find(name string) (Model, error) {
	for _, m := range s.Catalog {
		if m.Name == name {
			return m, nil
		}
	}
	var names []string
	for _, m := range s.Catalog {
		names = append(names, m.Name)
	}
	return Model{}, fmt.Errorf("no model %q in the catalog (known: %s)", name, strings.Join(names, ", "))
}

// Path is where a model lives once pulled.
func (s *Store) Path(m Model) string { return filepath.Join(s.Dir, m.File()) }

// Present reports whether a model's file is there, whole (by size).
func (s *Store) Present(m Model) bool {
	st, err := os.Stat(s.Path(m))
	return err == nil && st.Size() == m.Size
}

// Progress is told bytes done of the total as a download goes.
type Progress func(done, total int64)

// Pull downloads a model into the folder. A download cut off is resumed
// from its .part file with an HTTP range request; the file is verified
// against its checksum before it takes the model's name, and a file that
// does not match is removed.
func (s *Store) Pull(ctx context.Context, m Model, progress Progress) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("make the models folder: %w", err)
	}
	if s.Present(m) {
		if err := s.Verify(m); err == nil {
			return nil
		}
	}
	part := s.Path(m) + ".part"
	for attempt := 0; ; attempt++ {
		err := s.fetch(ctx, m, part, progress)
		if err == nil {
			break
		}
		if ctx.Err() != nil || attempt >= 4 || errors.Is(err, errPermanent) {
			if st, serr := os.Stat(part); serr == nil && st.Size() == 0 {
				os.Remove(part) // nothing to resume from
			}
			return err
		}
		select { // a dropped connection: resume after a pause
		case <-time.After(time.Duration(attempt+1) * 500 * time.Millisecond):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := checkFile(part, m); err != nil {
		os.Remove(part)
		return fmt.Errorf("%s: %w: %w; the download was removed, pull it again", m.Name, errChecksum, err)
	}
	if err := os.Rename(part, s.Path(m)); err != nil {
		return err
	}
	return os.Chmod(s.Path(m), 0o600)
}

var (
	errPermanent = errors.New("permanent")
	errChecksum  = errors.New("not the catalog's file")
)

// fetch downloads what part still lacks.
func (s *Store) fetch(ctx context.Context, m Model, part string, progress Progress) error {
	f, err := os.OpenFile(part, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	have, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if have >= m.Size {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, "GET", s.source(m), nil)
	if err != nil {
		return fmt.Errorf("%w: %v", errPermanent, err)
	}
	if have > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(have, 10)+"-")
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 0} // a large model takes long; the context bounds it
	}
	resp, err := client.Do(req)
	if err != nil && unreachable(err) {
		return fmt.Errorf("%w: download %s: %w", errPermanent, m.Name, err)
	} else if err != nil {
		return fmt.Errorf("download %s: %w", m.Name, err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
	case http.StatusOK:
		// The server ignored the range: start over.
		if err := f.Truncate(0); err != nil {
			return err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		have = 0
	case http.StatusRequestedRangeNotSatisfiable:
		return nil // the part is whole already
	case http.StatusNotFound, http.StatusForbidden, http.StatusUnauthorized:
		return fmt.Errorf("%w: download %s: %s", errPermanent, m.Name, resp.Status)
	default:
		return fmt.Errorf("download %s: %s", m.Name, resp.Status)
	}
	w := &counter{w: f, done: have, total: m.Size, progress: progress}
	if _, err := io.Copy(w, io.LimitReader(resp.Body, m.Size-have)); err != nil {
		return fmt.Errorf("download %s: %w", m.Name, err)
	}
	if w.done < m.Size {
		return fmt.Errorf("download %s: cut off at %d of %d bytes", m.Name, w.done, m.Size)
	}
	return nil
}

type counter struct {
	w           io.Writer
	done, total int64
	progress    Progress
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.done += int64(n)
	if c.progress != nil {
		c.progress(c.done, c.total)
	}
	return n, err
}

// Verify checks a pulled model's size and checksum.
func (s *Store) Verify(m Model) error {
	return checkFile(s.Path(m), m)
}

func checkFile(path string, m Model) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != m.Size {
		return fmt.Errorf("size %d, want %d", st.Size(), m.Size)
	}
	var h hash.Hash
	want := m.SHA256
	if want != "" {
		h = sha256.New()
	} else {
		h, want = sha1.New(), m.SHA1
	}
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, want) {
		return fmt.Errorf("checksum mismatch (got %s, want %s)", got, want)
	}
	return nil
}

// Remove deletes a model and any partial download of it.
func (s *Store) Remove(m Model) error {
	err := os.Remove(s.Path(m))
	os.Remove(s.Path(m) + ".part")
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s is not pulled", m.Name)
	}
	return err
}
