package appliance

import "time"

// FirebaseAccount binds a Firebase uid (the subject of a Firebase ID token,
// as a rebuilt Omi app sends it) to the user it acts for. Only the owner
// creates bindings (hearth users bind-firebase); an unbound Firebase
// account opens nothing.
type FirebaseAccount struct {
	UID       string    `json:"firebase_uid"`
	UserID    string    `json:"user_id"`
	CreatedAt time.Time `json:"created_at"`
}

// MaxFirebaseUIDLen is the longest Firebase uid (Firebase's own limit).
const MaxFirebaseUIDLen = 128
