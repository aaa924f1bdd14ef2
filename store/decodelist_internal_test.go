package store

import (
	"reflect"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
)

// decodeList gives what encoding/json gives, the empty array included: an
// empty list, never nil (the wire shows [] and not null).
func TestDecodeList(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []appliance.Event
		wantErr bool
	}{
		{in: "[]", want: []appliance.Event{}},
		{in: `[{"title":"Sync","duration":30}]`, want: []appliance.Event{{Title: "Sync", Duration: 30}}},
		{in: "[", wantErr: true},
		{in: "", wantErr: true},
	} {
		var got []appliance.Event
		err := decodeList(tc.in, &got)
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: error %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && (got == nil || !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("%q: got %#v, want %#v", tc.in, got, tc.want)
		}
	}
}
