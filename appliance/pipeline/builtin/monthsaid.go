package builtin

import "time"

// saidMonth dates a day of the month said without its month ("my talk is
// on the 10th") in the month it was said with before ("the 9th and 10th of
// December"): a day said again refers back to that date, as a listener
// hears it. A day not said before keeps its next occurrence.
func (dl *dialogue) saidMonth(i, a int, c *timeCue, tm timing) {
	if c.date && c.fromWeekday {
		dl.saidWeekday(i, a, c, tm)
		return
	}
	if !c.monthless {
		return
	}
	for j := i; j >= 0; j-- {
		v := &dl.utts[j]
		for n := len(v.clauses) - 1; n >= 0; n-- {
			cl := v.clauses[n]
			if j == i && cl[0] >= a || !namesMonth(v.words, cl[0], cl[1]) || !saysDay(v.words, cl[0], cl[1], c.day) {
				continue
			}
			cc := scanCues(v.words, cl[0], cl[1], tm.ref, nil)
			if !cc.date || cc.monthless || cc.past || cc.mon == c.mon {
				return
			}
			if c.day > daysIn(time.Date(cc.y, cc.mon, 1, 0, 0, 0, 0, tm.loc)) {
				return
			}
			c.y, c.mon = cc.y, cc.mon
			return
		}
	}
}

// saysDay: ws[a:b] says day d of a month, as an ordinal ("10th", "tenth")
// or a number after a month's name ("December 10").
func saysDay(ws []cword, a, b, d int) bool {
	for k := a; k < b; k++ {
		_, afterMonth := months[wordAt(ws, k-1)]
		if n, m := dayNumberAt(ws, k, afterMonth); m > 0 && n == d {
			return true
		}
	}
	return false
}

// namesMonth: a month's name is among ws[a:b]; "may" only as "of May" or
// before its day, being mostly a verb.
func namesMonth(ws []cword, a, b int) bool {
	for k := a; k < b; k++ {
		if _, ok := months[ws[k].lower]; ok {
			if d, _ := dayNumberAt(ws, k+1, true); ws[k].lower != "may" || wordAt(ws, k-1) == "of" || d > 0 {
				return true
			}
		}
	}
	return false
}

// weekdayWindow is how many utterances back a weekday said alone looks for
// the date it was said with.
const weekdayWindow = 8

// saidWeekday dates a weekday said alone ("you're booked for Thursday at
// 11:20") on the date it was said with before ("we have Thursday the 3rd
// at 11:20 or Friday at 2"), as a listener hears it, when that is a later
// one than the weekday's next occurrence.
func (dl *dialogue) saidWeekday(i, a int, c *timeCue, tm timing) {
	wd := time.Date(c.y, c.mon, c.day, 12, 0, 0, 0, tm.loc).Weekday()
	for j := i; j >= 0 && j >= i-weekdayWindow; j-- {
		v := &dl.utts[j]
		for n := len(v.clauses) - 1; n >= 0; n-- {
			cl := v.clauses[n]
			if j == i && cl[0] >= a || !namesWeekday(v.words, cl[0], cl[1], wd) {
				continue
			}
			cc := scanCues(v.words, cl[0], cl[1], tm.ref, nil)
			if !cc.date || cc.fromWeekday || cc.past {
				continue
			}
			said := time.Date(cc.y, cc.mon, cc.day, 12, 0, 0, 0, tm.loc)
			if said.Weekday() != wd || !said.After(time.Date(c.y, c.mon, c.day, 12, 0, 0, 0, tm.loc)) {
				return
			}
			c.y, c.mon, c.day = cc.y, cc.mon, cc.day
			return
		}
	}
}

// namesWeekday: weekday wd is named among ws[a:b].
func namesWeekday(ws []cword, a, b int, wd time.Weekday) bool {
	for k := a; k < b; k++ {
		if weekdayOf(ws[k].lower) == int(wd) {
			return true
		}
	}
	return false
}
