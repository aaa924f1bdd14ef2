package main

import (
	"slices"
	"testing"
)

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
		bad  bool
	}{
		{in: "1k,10k,100k", want: []int{1000, 10000, 100000}},
		{in: " 500 , 2K", want: []int{500, 2000}},
		{in: "", bad: true},
		{in: "0", bad: true},
		{in: "ten", bad: true},
		{in: "2000k", bad: true},
	} {
		got, err := parseSizes(tc.in)
		if (err != nil) != tc.bad || !slices.Equal(got, tc.want) {
			t.Errorf("parseSizes(%q) = %v, %v", tc.in, got, err)
		}
	}
}
