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
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// The task gate is a learned check beside the rules, one logistic
// regression over general features of an action item candidate: the
// clause it was read from (clauseFeatures: words, subject, modal, negation,
// question, time, speaker, position, the structure the rules read) and the
// candidate itself (the rule that proposed it, its due, its description's
// length, first word and pronouns). It scores two kinds of examples alike:
// the rules' candidates, and the clauses no rule made a task of, told apart
// by a feature. A candidate the gate scores under Drop is dropped
// (precision); a clause no rule proposed that it scores at least Accept,
// and that has a commitment's structure, becomes a task (recall).
//
// It is trained by `go generate` (eval/cmd/traingate) on the development
// half of the evaluation corpus only; its thresholds are chosen by
// cross-validation inside the folds it is trained on and kept only where
// the fold it was not trained on and the live twins improve. A gate with
// no thresholds (Drop and Accept 0) is never read: the rules alone.

//go:generate go run ../eval/cmd/traingate -out gate.txt

//go:embed gate.txt
var gateText []byte

// Gate is the task gate's weights and thresholds.
type Gate struct {
	W      []float32 // 1<<featureBits weights
	Drop   float64   // a candidate scored under this is dropped; 0 drops none
	Accept float64   // a clause no rule proposed scored this high is a task; 0 accepts none
}

// NewGate is a gate with zero weights and no thresholds.
func NewGate() *Gate { return &Gate{W: make([]float32, 1<<featureBits)} }

var embeddedGate = sync.OnceValue(func() *Gate {
	g, err := ParseGate(gateText)
	if err != nil {
		panic("builtin: gate.txt: " + err.Error())
	}
	return g
})

// EmbeddedGate is the gate the committed gate.txt holds.
func EmbeddedGate() *Gate { return embeddedGate() }

// shippedGate is the embedded gate when it changes anything, nil otherwise;
// its thresholds are read first, so that a gate with none (the rules
// alone) costs no parse of its weights.
var shippedGate = sync.OnceValue(func() *Gate {
	sc := bufio.NewScanner(bytes.NewReader(gateText))
	on := false
	for sc.Scan() {
		if l := sc.Bytes(); len(l) > 0 && l[0] >= '0' && l[0] <= '9' {
			break // the weights, after the thresholds (Marshal)
		}
		f := strings.Fields(sc.Text())
		if len(f) == 2 && (f[0] == "drop" || f[0] == "accept") {
			v, err := strconv.ParseFloat(f[1], 64)
			on = on || err != nil || v > 0
		}
	}
	if !on {
		return nil
	}
	return embeddedGate()
})

// NewWithGate is the offline extractor (the embedded clause model's rules)
// checked by the task gate g instead of the embedded one; nil is the rules
// alone. For measuring the gate (appliance/pipeline/eval).
func NewWithGate(g *Gate) *Builtin {
	return &Builtin{model: shippedModel, gate: func() *Gate { return g }}
}

// ParseGate reads what Marshal writes.
func ParseGate(b []byte) (*Gate, error) {
	g := NewGate()
	sc := bufio.NewScanner(bytes.NewReader(b))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("line %d: want 2 fields", line)
		}
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch f[0] {
		case "bits":
			if int(v) != featureBits {
				return nil, fmt.Errorf("line %d: %d feature bits, want %d", line, int(v), featureBits)
			}
		case "drop":
			g.Drop = v
		case "accept":
			g.Accept = v
		default:
			i, err := strconv.Atoi(f[0])
			if err != nil || i < 0 || i >= 1<<featureBits {
				return nil, fmt.Errorf("line %d: weight index %q", line, f[0])
			}
			g.W[i] = float32(v)
		}
	}
	return g, sc.Err()
}

// Marshal writes the gate as text: the thresholds, then each non-zero weight.
func (g *Gate) Marshal(header string) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(header, "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	fmt.Fprintf(&b, "bits %d\ndrop %g\naccept %g\n", featureBits, g.Drop, g.Accept)
	for i, v := range g.W {
		if r := math.Round(float64(v)*1e4) / 1e4; r != 0 {
			fmt.Fprintf(&b, "%d %g\n", i, r)
		}
	}
	return b.Bytes()
}

// GateExample is one thing the gate scores: a rule's candidate or a clause
// no rule made a task of.
type GateExample struct {
	Candidate bool
	Text      string // the candidate's description, or the clause's words
	Utt       int
	Features  []uint32
}

// GateExamples are the candidates the rules give for an English
// transcript and the clauses they made no task of, with the gate's
// features; for training the gate. Nil for a transcript the extractor
// reads no tasks from.
func GateExamples(in appliance.TranscriptInput) []GateExample {
	d := parseSegments(in.Segments)
	a := analyze(d, in.Language)
	defer a.release()
	if !a.english || a.title() == "" {
		return nil
	}
	tm := newTiming(in)
	dl := newDialogue(a.doc, in.Segments, in.UserName)
	tasks := dl.actionItems(tm)
	s := appliance.Structured{}
	var evUtts []int
	s.Events, evUtts = dl.eventsFrom(tm)
	m := shippedModel()
	tasks, _ = m.filter(dl, tm, tasks, s.Events, evUtts)
	tasks = m.propose(dl, tm, tasks)
	var out []GateExample
	var fs []uint32
	for _, t := range tasks {
		fs = dl.candidateFeatures(fs[:0], tm, t, tasks)
		out = append(out, GateExample{Candidate: true, Text: t.desc, Utt: t.utt, Features: append([]uint32(nil), fs...)})
	}
	dl.freeClauses(tm, tasks, func(i, ci int, fs []uint32) {
		u := &dl.utts[i]
		cl := u.clauses[ci]
		words := make([]string, 0, cl[1]-cl[0])
		for _, w := range u.words[cl[0]:cl[1]] {
			words = append(words, w.text)
		}
		out = append(out, GateExample{Text: strings.Join(words, " "), Utt: i, Features: append([]uint32(nil), fs...)})
	})
	return out
}

// taskClause is the clause of t's utterance its deed was read from: the
// one holding its verb, else the first.
func (dl *dialogue) taskClause(t task) int {
	u := &dl.utts[t.utt]
	for ci, cl := range u.clauses {
		for _, w := range u.words[cl[0]:cl[1]] {
			if t.verb != "" && lexicon.Stem(w.lower) == t.verb {
				return ci
			}
		}
	}
	return 0
}

// ruleOf names the way the rules came to candidate t: a deadline read as a
// task, another speaker's request, the user's memo, the user's commitment,
// or another path.
func (dl *dialogue) ruleOf(t task, ci int) string {
	u := &dl.utts[t.utt]
	switch {
	case t.verb == "":
		return "deadline"
	case !u.isUser:
		return "asked"
	case dl.single():
		return "memo"
	}
	cl := u.clauses[ci]
	if _, ok := commitment(u.words, cl[0], cl[1], t.due != nil); ok {
		return "commit"
	}
	return "other"
}

// gatePronouns in a description stand for a thing said elsewhere.
var gatePronouns = lexicon.NewSet(`it them that this those these him her`)

// candidateFeatures appends the gate's features of candidate t to dst.
func (dl *dialogue) candidateFeatures(dst []uint32, tm timing, t task, tasks []task) []uint32 {
	if t.utt < 0 || t.utt >= len(dl.utts) || len(dl.utts[t.utt].clauses) == 0 {
		return append(dst, hashFeature("cand", "nowhere"))
	}
	u := &dl.utts[t.utt]
	ci := dl.taskClause(t)
	cl := u.clauses[ci]
	dst = clauseFeatures(dst, u, cl[0], cl[1], ci, t.utt, len(dl.utts), tm.ref, dl.single())
	rule := dl.ruleOf(t, ci)
	dst = append(dst, hashFeature("cand"), hashFeature("rule", rule))
	if t.due != nil {
		dst = append(dst, hashFeature("due"), hashFeature("due", rule))
	}
	words := strings.Fields(strings.ToLower(t.desc))
	dst = append(dst, hashFeature("dlen", itoaSmall(min(len(words), 9))))
	if len(words) > 0 {
		dst = append(dst, hashFeature("dfirst", lexicon.Stem(words[0])))
		if inSet(taskVerbs, words[0]) {
			dst = append(dst, hashFeature("dtaskverb"))
		}
	}
	for _, w := range words {
		if inSet(gatePronouns, w) {
			dst = append(dst, hashFeature("dpron"))
			break
		}
	}
	if strings.Contains(t.desc, "Speaker ") {
		dst = append(dst, hashFeature("dspeaker"))
	}
	same := 0
	for _, o := range tasks {
		if o.utt == t.utt {
			same++
		}
	}
	return append(dst, hashFeature("peers", itoaSmall(min(same, 3))))
}

// freeClauses calls f with the features of each clause of the user's that
// gave no candidate, in an utterance that gave none.
func (dl *dialogue) freeClauses(tm timing, tasks []task, f func(i, ci int, fs []uint32)) {
	had := make([]bool, len(dl.utts))
	for _, t := range tasks {
		if t.utt >= 0 && t.utt < len(had) {
			had[t.utt] = true
		}
	}
	var fs []uint32
	single := dl.single()
	for i := range dl.utts {
		u := &dl.utts[i]
		if had[i] || !u.isUser {
			continue
		}
		for ci, cl := range u.clauses {
			fs = clauseFeatures(fs[:0], u, cl[0], cl[1], ci, i, len(dl.utts), tm.ref, single)
			fs = append(fs, hashFeature("free"))
			f(i, ci, fs)
		}
	}
}

// apply drops the candidates the gate scores under Drop and adds the
// clauses it scores at least Accept that have a commitment's structure.
func (g *Gate) apply(dl *dialogue, tm timing, tasks []task) []task {
	if g == nil || g.Drop <= 0 && g.Accept <= 0 {
		return tasks
	}
	var fs []uint32
	if g.Drop > 0 && len(tasks) > 0 {
		kept := tasks[:0:0]
		for _, t := range tasks {
			fs = dl.candidateFeatures(fs[:0], tm, t, tasks)
			if Probability(g.W, fs) >= g.Drop {
				kept = append(kept, t)
			}
		}
		tasks = kept
	}
	if g.Accept <= 0 || len(tasks) >= maxActionItems {
		return tasks
	}
	var add []task
	took := -1
	dl.freeClauses(tm, tasks, func(i, ci int, fs []uint32) {
		if i == took || len(tasks)+len(add) >= maxActionItems || Probability(g.W, fs) < g.Accept {
			return
		}
		if t, ok := dl.clauseTask(tm, i, ci, append(tasks, add...)); ok {
			add, took = append(add, t), i
		}
	})
	return append(tasks, add...)
}

// clauseTask is the task clause ci of utterance i states, when it has a
// commitment's structure (the user, a modal, then the deed) and the deed
// describes something concrete; due by the time grammar, as the rules'
// tasks are.
func (dl *dialogue) clauseTask(tm timing, i, ci int, tasks []task) (task, bool) {
	u := &dl.utts[i]
	if u.question {
		return task{}, false
	}
	a, b := u.clauses[ci][0], u.clauses[ci][1]
	used := make([]bool, len(u.words))
	due, timed := tm.due(u.words, a, b, used)
	body, ok := commitment(u.words, a, b, timed)
	if !ok || body >= b {
		return task{}, false
	}
	for body < b && (used[body] || inSet(preamble, u.words[body].lower)) {
		body++
	}
	if body >= b {
		return task{}, false
	}
	desc, topic, vague := describe(u.words, body, b, used, u.isUser, dl.addressee(i))
	if desc == "" || vague {
		return task{}, false
	}
	t := task{verb: lexicon.Stem(u.words[body].lower), desc: desc, topic: topic, due: due, utt: i}
	for _, o := range tasks {
		if sameTopic(o, t) {
			return task{}, false
		}
	}
	return t, true
}

// hashFeature is the weight index of a feature named by parts, as
// clauseFeatures hashes its own.
func hashFeature(parts ...string) uint32 {
	var h uint32 = 2166136261 // FNV-1a, as hash/fnv, without its allocation
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h ^= uint32(p[i])
			h *= 16777619
		}
		h *= 16777619 // the zero byte clauseFeatures writes after each part
	}
	return h & (1<<featureBits - 1)
}

func noGate() *Gate { return nil }
