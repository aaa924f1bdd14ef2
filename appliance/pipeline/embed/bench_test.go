package embed

import (
	"context"
	"strings"
	"testing"
)

// sentence40 is a 40-word sentence, the size of a long memory or a query.
const sentence40 = "During the quarterly budget review on Friday, Sarah from finance explained " +
	"that the marketing team overspent on conference travel, so we agreed to freeze new " +
	"hiring until March and revisit the forecast after the product launch next month."

// transcript500 is about 500 words of conversational transcript.
func transcript500() string {
	segs := []string{
		"Okay so I think we should start with the budget, because honestly that's the thing everyone keeps asking me about.",
		"Yeah, the numbers from last quarter came in a little under what we expected, mostly because of the delayed launch.",
		"Right, and the launch slipped because the security audit took three weeks longer than the vendor promised.",
		"Did we ever get the final report from them? I remember Priya saying it would land on Tuesday.",
		"It came in yesterday. There are two medium findings around password storage and one about session timeouts.",
		"Can we fix those before the end of the month, or do we need to push the release again?",
		"I talked to the backend team this morning and they think the password change is a day of work at most.",
		"By the way, my daughter has her piano recital on Saturday, so I'll be offline from about two o'clock.",
		"No problem at all. Also remind me to book the restaurant for the team dinner, the Thai place on Elm Street.",
		"Sure, I'll send a calendar invite. What about the hiring plan, are we still freezing new positions until March?",
	}
	var b strings.Builder
	for n := 0; n < 500; {
		for _, s := range segs {
			b.WriteString(s)
			b.WriteByte(' ')
			n += len(strings.Fields(s))
			if n >= 500 {
				break
			}
		}
	}
	return b.String()
}

func BenchmarkEmbed(b *testing.B) {
	cases := []struct {
		name string
		text string
	}{
		{"sentence40", sentence40},
		{"transcript500", transcript500()},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := NewBuiltin(0)
			ctx := context.Background()
			texts := []string{c.text}
			b.SetBytes(int64(len(c.text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Embed(ctx, texts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
