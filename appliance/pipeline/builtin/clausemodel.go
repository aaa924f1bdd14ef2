package builtin

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance"
)

// The clause model is a learned check on the rules: two logistic
// regressions over clauseFeatures, one for "this clause states a task
// someone takes on" and one for "this clause states a plan with a time",
// trained on the development half of the evaluation corpus only
// (appliance/pipeline/eval, `go generate`), never on the held-out half. A
// rule's action item or event whose utterance has no clause the model gives
// at least the floor is dropped. The weights are a committed data file, so a
// build needs no training and the extractor stays deterministic.

//go:generate go run ../eval/cmd/trainclauses -out clausemodel.txt

//go:embed clausemodel.txt
var clauseModelText []byte

// ClauseModel is the clause classifier's weights and the floors below which
// the rules' candidates are dropped.
type ClauseModel struct {
	Task, Plan           []float32 // 1<<featureBits weights each
	TaskFloor, PlanFloor float64   // 0 keeps every candidate
	TaskPropose          float64   // a clause scored this high gives a task the rules missed; 0 gives none
}

var embeddedModel = sync.OnceValue(func() *ClauseModel {
	m, err := ParseClauseModel(clauseModelText)
	if err != nil {
		panic("builtin: clausemodel.txt: " + err.Error())
	}
	return m
})

// EmbeddedClauseModel is the model New uses (clausemodel.txt).
func EmbeddedClauseModel() *ClauseModel { return embeddedModel() }

// NewClauseModel is a model with zero weights and no floors.
func NewClauseModel() *ClauseModel {
	return &ClauseModel{Task: make([]float32, 1<<featureBits), Plan: make([]float32, 1<<featureBits)}
}

// ParseClauseModel reads what Marshal writes.
func ParseClauseModel(b []byte) (*ClauseModel, error) {
	m := NewClauseModel()
	sc := bufio.NewScanner(bytes.NewReader(b))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want 3 fields", line)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch f[0] {
		case "floor":
			switch f[1] {
			case "task":
				m.TaskFloor = v
			case "plan":
				m.PlanFloor = v
			}
			continue
		case "propose":
			if f[1] == "task" {
				m.TaskPropose = v
			}
			continue
		case "bits":
			if int(v) != featureBits {
				return nil, fmt.Errorf("line %d: %d feature bits, want %d", line, int(v), featureBits)
			}
			continue
		}
		i, err := strconv.Atoi(f[1])
		if err != nil || i < 0 || i >= 1<<featureBits {
			return nil, fmt.Errorf("line %d: weight index %q", line, f[1])
		}
		switch f[0] {
		case "task":
			m.Task[i] = float32(v)
		case "plan":
			m.Plan[i] = float32(v)
		default:
			return nil, fmt.Errorf("line %d: unknown record %q", line, f[0])
		}
	}
	return m, sc.Err()
}

// Marshal writes the model as text: the floors, then each non-zero weight.
func (m *ClauseModel) Marshal(header string) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(header, "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "bits - %d\nfloor task %g\nfloor plan %g\npropose task %g\n", featureBits, m.TaskFloor, m.PlanFloor, m.TaskPropose)
	for _, w := range []struct {
		name string
		w    []float32
	}{{"task", m.Task}, {"plan", m.Plan}} {
		for i, v := range w.w {
			if r := math.Round(float64(v)*1e4) / 1e4; r != 0 {
				fmt.Fprintf(&b, "%s %d %g\n", w.name, i, r)
			}
		}
	}
	return b.Bytes()
}

// Probability is the logistic regression's probability for the features fs.
func Probability(w []float32, fs []uint32) float64 {
	var z float64
	for _, f := range fs {
		z += float64(w[f])
	}
	return 1 / (1 + math.Exp(-z))
}

// ClauseExample is one clause of a transcript as the classifier sees it.
type ClauseExample struct {
	Text     string // the clause's words
	Utt      int    // its utterance
	User     bool   // said by the user
	Time     bool   // the time grammar reads a time in it
	Features []uint32
}

// ClauseExamples are the clauses of an English transcript with their
// features, as the extractor reads them; for training the clause model.
func ClauseExamples(in appliance.TranscriptInput) []ClauseExample {
	d := parseSegments(in.Segments)
	dl := newDialogue(d, in.Segments, in.UserName)
	tm := newTiming(in)
	var out []ClauseExample
	for i := range dl.utts {
		u := &dl.utts[i]
		for ci, cl := range u.clauses {
			var words []string
			for _, w := range u.words[cl[0]:cl[1]] {
				words = append(words, w.text)
			}
			out = append(out, ClauseExample{
				Text: strings.Join(words, " "), Utt: i, User: u.isUser, Time: scanCues(u.words, cl[0], cl[1], tm.ref, nil).found,
				Features: clauseFeatures(nil, u, cl[0], cl[1], ci, i, len(dl.utts), tm.ref, dl.single()),
			})
		}
	}
	return out
}

// uttScores is the model's highest task and plan probability over the
// clauses of each utterance.
func (m *ClauseModel) uttScores(dl *dialogue, tm timing) (task, plan []float64) {
	task, plan = make([]float64, len(dl.utts)), make([]float64, len(dl.utts))
	var fs []uint32
	single := dl.single()
	for i := range dl.utts {
		u := &dl.utts[i]
		for ci, cl := range u.clauses {
			fs = clauseFeatures(fs[:0], u, cl[0], cl[1], ci, i, len(dl.utts), tm.ref, single)
			task[i] = max(task[i], Probability(m.Task, fs))
			plan[i] = max(plan[i], Probability(m.Plan, fs))
		}
	}
	return task, plan
}

// filter drops the tasks and events whose utterance the model scores below
// its floors; evUtts are the events' utterances.
func (m *ClauseModel) filter(dl *dialogue, tm timing, tasks []task, events []appliance.Event, evUtts []int) ([]task, []appliance.Event) {
	if m == nil || (m.TaskFloor <= 0 && m.PlanFloor <= 0) || (len(tasks) == 0 && len(events) == 0) {
		return tasks, events
	}
	ts, ps := m.uttScores(dl, tm)
	keptT := tasks[:0:0]
	for _, t := range tasks {
		if t.utt < 0 || t.utt >= len(ts) || ts[t.utt] >= m.TaskFloor {
			keptT = append(keptT, t)
		}
	}
	keptE := events[:0:0]
	for k, ev := range events {
		if k >= len(evUtts) || ps[evUtts[k]] >= m.PlanFloor {
			keptE = append(keptE, ev)
		}
	}
	return keptT, keptE
}

// TrainLogistic fits a logistic regression over hashed features by
// stochastic gradient descent in a fixed order (so the same data give the
// same weights), with L2 regularisation l2 and positives weighted posWeight.
func TrainLogistic(xs [][]uint32, ys []bool, epochs int, rate, l2, posWeight float64) []float32 {
	w := make([]float64, 1<<featureBits)
	for e := range epochs {
		lr := rate / (1 + float64(e))
		for k, fs := range xs {
			var z float64
			for _, f := range fs {
				z += w[f]
			}
			p := 1 / (1 + math.Exp(-z))
			y, cw := 0.0, 1.0
			if ys[k] {
				y, cw = 1, posWeight
			}
			g := cw * (p - y)
			for _, f := range fs {
				w[f] -= lr * (g + l2*w[f])
			}
		}
	}
	out := make([]float32, len(w))
	for i, v := range w {
		out[i] = float32(v)
	}
	return out
}
