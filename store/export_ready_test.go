package store

// OpenConns is how many connections each pool holds, and how many of the
// read pool's are idle (tests only).
func (db *DB) OpenConns() (writer, reader, readerIdle int) {
	r := db.reader.Stats()
	return db.writer.Stats().OpenConnections, r.OpenConnections, r.Idle
}
