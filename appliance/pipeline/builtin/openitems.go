package builtin

import (
	"strings"
	"sync"

	"github.com/hearth-appliance/hearth/appliance/pipeline/lexicon"
)

// Open items. A conversation often repeats a task the user already has
// ("I still need to renew the passport"); the reference's prompt is given
// the user's open items and told not to add them again. The built-in route
// compares topics the way it merges a request with the user's answer
// (sameTopic): the same verb and most content words, or two or more shared
// content words.

// withoutOpen drops the tasks that repeat one of the user's open items.
func withoutOpen(tasks []task, openItems func() []string) []task {
	if openItems == nil || len(tasks) == 0 {
		return tasks
	}
	open := openItems()
	known := make([]task, 0, len(open))
	for _, d := range open {
		if t, ok := openTasks.of(d); ok {
			known = append(known, t)
		}
	}
	out := tasks[:0]
	for _, t := range tasks {
		dup := false
		for _, k := range known {
			if sameTopic(k, t) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

// taskOfDescription reads a stored description ("Renew the passport") as
// a task's verb and topic.
func taskOfDescription(d string) (task, bool) {
	ws := splitWords(d)
	if len(ws) == 0 {
		return task{}, false
	}
	t := task{verb: lexicon.Stem(ws[0].lower)}
	for _, w := range ws[1:] {
		if isTaskContent(w.lower) {
			t.topic = append(t.topic, lexicon.Stem(strings.TrimSuffix(w.lower, "'s")))
		}
	}
	return t, len(t.topic) > 0
}

// openTasks keeps stored descriptions read as tasks: every create compares
// its tasks with the same few hundred open items, and reading each again
// (splitting and stemming) cost more than the rest of the comparison.
var openTasks = taskCache{m: map[string]cachedTask{}}

// taskCacheMax bounds the cache; past it, it starts afresh.
const taskCacheMax = 8192

type cachedTask struct {
	t  task
	ok bool
}

type taskCache struct {
	mu sync.Mutex
	m  map[string]cachedTask
}

// of is taskOfDescription(d), read once. The task returned is shared:
// callers only read it (sameTopic).
func (c *taskCache) of(d string) (task, bool) {
	c.mu.Lock()
	ct, hit := c.m[d]
	c.mu.Unlock()
	if hit {
		return ct.t, ct.ok
	}
	t, ok := taskOfDescription(d)
	c.mu.Lock()
	if len(c.m) >= taskCacheMax {
		clear(c.m)
	}
	c.m[d] = cachedTask{t, ok}
	c.mu.Unlock()
	return t, ok
}
