package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hearth-appliance/hearth/models"
)

const modelsUsage = `Usage:
  hearth models list   --data DIR                 the catalog, and which models are pulled
  hearth models pull   NAME --data DIR            download a model (resumes; verified before use)
  hearth models verify [NAME] --data DIR          check pulled models' checksums
  hearth models rm     NAME --data DIR            delete a model

--models-url (HEARTH_MODELS_URL) downloads from a mirror; --models-catalog
(HEARTH_MODELS_CATALOG) adds a mirror's own entries (a JSON array of
{name, size, sha256 or sha1, english}).
`

// runModels manages the model files in DATA/models.
func runModels(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprint(stdout, modelsUsage)
		if len(args) == 0 {
			return usageErr("name a models command")
		}
		return nil
	}
	sub, rest := args[0], args[1:]
	var name string
	if len(rest) > 0 && !isFlag(rest[0]) {
		name, rest = rest[0], rest[1:]
	}
	fs := newFlagSet("models "+sub, stderr)
	data := fs.String("data", "", "the appliance's data directory (models go in DATA/models)")
	url := fs.String("models-url", models.DefaultBaseURL, "where models are downloaded from")
	catalog := fs.String("models-catalog", "", "a JSON file of extra catalog entries (a mirror's own models)")
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if name == "" && fs.NArg() > 0 {
		name = fs.Arg(0)
	}
	if *data == "" {
		return usageErr("--data is required")
	}
	st := &models.Store{Dir: filepath.Join(*data, "models"), BaseURL: *url, Catalog: models.Catalog}
	if *catalog != "" {
		extra, err := models.LoadCatalog(*catalog)
		if err != nil {
			return usageErr("%v", err)
		}
		st.Catalog = models.Merge(models.Catalog, extra)
	}
	switch sub {
	case "list":
		fmt.Fprintf(stdout, "%-22s %-8s %9s  %-8s %s\n", "NAME", "KIND", "SIZE", "LANGUAGE", "PULLED")
		for _, m := range st.Catalog {
			lang, pulled, kind := "multi", "", "whisper"
			if m.English {
				lang = "en"
			}
			if st.Present(m) {
				pulled = "yes"
			}
			if m.Kind != models.KindWhisper {
				kind = m.Kind
			}
			fmt.Fprintf(stdout, "%-22s %-8s %9s  %-8s %s\n", m.Name, kind, fmtSize(m.Size), lang, pulled)
		}
		return nil
	case "pull", "rm":
		if name == "" {
			return usageErr("name a model: hearth models %s NAME (see hearth models list)", sub)
		}
		m, err := st.Find(name)
		if err != nil {
			return usageErr("%v", err)
		}
		if sub == "rm" {
			if err := st.Remove(m); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "removed %s\n", m.Name)
			return nil
		}
		bar := newProgressBar(stderr, m.Name)
		if err := st.Pull(ctx, m, bar.update); err != nil {
			// The owner reads the sentence the console shows (offline: use a
			// mirror), not the dialer's words behind it.
			return errors.New(st.Explain(m, err))
		}
		bar.finish()
		fmt.Fprintln(stdout, st.Path(m))
		return nil
	case "verify":
		var targets []models.Model
		if name != "" {
			m, err := st.Find(name)
			if err != nil {
				return usageErr("%v", err)
			}
			targets = append(targets, m)
		} else {
			for _, m := range st.Catalog {
				if _, err := os.Stat(st.Path(m)); err == nil {
					targets = append(targets, m)
				}
			}
		}
		if len(targets) == 0 {
			// Silence would read as "all verified".
			fmt.Fprintf(stdout, "no models pulled in %s; pull one with: hearth models pull base.en --data %s\n", st.Dir, *data)
			return nil
		}
		bad := 0
		for _, m := range targets {
			if err := st.Verify(m); err != nil {
				bad++
				fmt.Fprintf(stdout, "%s: BAD (%v)\n", m.Name, err)
				continue
			}
			fmt.Fprintf(stdout, "%s: ok\n", m.Name)
		}
		if bad > 0 {
			return fmt.Errorf("%d model(s) failed verification: pull them again", bad)
		}
		return nil
	}
	return usageErr("unknown models command %q\n\n%s", sub, modelsUsage)
}

// progressBar draws a download's progress on a terminal, or prints a line
// every 10 % when stderr is not one (a log, a pipe).
type progressBar struct {
	w       io.Writer
	name    string
	tty     bool
	started time.Time
	last    time.Time
	tenth   int64
}

func newProgressBar(w io.Writer, name string) *progressBar {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressBar{w: w, name: name, tty: tty, started: time.Now(), tenth: -1}
}

func (p *progressBar) update(done, total int64) {
	pct := 100 * done / max(total, 1)
	if !p.tty {
		if t := pct / 10; t != p.tenth {
			p.tenth = t
			fmt.Fprintf(p.w, "%s: %3d%% (%s of %s)\n", p.name, pct, fmtSize(done), fmtSize(total))
		}
		return
	}
	if time.Since(p.last) < 100*time.Millisecond && done < total {
		return
	}
	p.last = time.Now()
	width := 30
	fill := int(int64(width) * done / max(total, 1))
	rate := float64(done) / max(time.Since(p.started).Seconds(), 1e-3)
	fmt.Fprintf(p.w, "\r%s [%s%s] %3d%% %s of %s, %s/s ", p.name, strings.Repeat("#", fill), strings.Repeat(" ", width-fill),
		pct, fmtSize(done), fmtSize(total), fmtSize(int64(rate)))
}

func (p *progressBar) finish() {
	if p.tty {
		fmt.Fprintln(p.w)
	}
	fmt.Fprintf(p.w, "%s: verified in %s\n", p.name, time.Since(p.started).Round(time.Millisecond))
}
