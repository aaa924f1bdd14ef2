package console

import "testing"

func TestPasswordHashes(t *testing.T) {
	h, err := hashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := hashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		stored, password string
		want             bool
	}{
		{h, "correct horse battery", true},
		{h, "correct horse batterY", false},
		{h, "", false},
		{"pbkdf2-sha256$1$AAAA$AAAA", "x", false},
		{"md5$whatever", "x", false},
		{"", "", false},
	} {
		if got := checkPassword(tc.stored, tc.password); got != tc.want {
			t.Errorf("checkPassword(%.20q, %q) = %v", tc.stored, tc.password, got)
		}
	}
}
