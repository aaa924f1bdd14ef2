package builtin

import (
	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// preamble are the words before a task's deed that are not the deed: who
// takes it on, the modal that says so, discourse fillers ("so I need to",
// "okay we'll have to", "can you please").
var preamble = lexicon.NewSet(`i we you i'll we'll you'll i'm we're i've we've i'd need needs to have has got gotta going gonna
	will shall should must can could would please just so and but then also ok okay yeah yes um uh well remember don't
	forget let me let's really definitely probably actually still maybe want wanna like try am are is be able sure
	make oh right alright hey`)

// propose adds the tasks the rules missed: a clause the model scores at
// least TaskPropose, in an utterance that gave no task, whose deed (the
// clause after its subject, modal and fillers) describes something
// concrete; due by the time grammar, as the rules' tasks are.
func (m *ClauseModel) propose(dl *dialogue, tm timing, tasks []task) []task {
	if m == nil || m.TaskPropose <= 0 || len(tasks) >= maxActionItems {
		return tasks
	}
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
		if had[i] || u.question {
			continue
		}
		for ci, cl := range u.clauses {
			a, b := cl[0], cl[1]
			fs = clauseFeatures(fs[:0], u, a, b, ci, i, len(dl.utts), tm.ref, single)
			if Probability(m.Task, fs) < m.TaskPropose {
				continue
			}
			used := make([]bool, len(u.words))
			due, timed := tm.due(u.words, a, b, used)
			// the structure a task has: the user or "we" and a modal
			// ("I'll", "we need to"), the deed after it
			body, ok := commitment(u.words, a, b, timed)
			if !ok || !u.isUser || body >= b {
				continue
			}
			for body < b && (used[body] || inSet(preamble, u.words[body].lower)) {
				body++
			}
			if body >= b {
				continue
			}
			desc, topic, vague := describe(u.words, body, b, used, u.isUser, dl.addressee(i))
			if desc == "" || vague {
				continue
			}
			t := task{verb: lexicon.Stem(u.words[body].lower), desc: desc, topic: topic, due: due, utt: i}
			dup := false
			for _, o := range tasks {
				dup = dup || sameTopic(o, t)
			}
			if dup {
				continue
			}
			tasks = append(tasks, t)
			if len(tasks) >= maxActionItems {
				return tasks
			}
			break
		}
	}
	return tasks
}
