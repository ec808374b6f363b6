// Package desk is the tournament desk's library (issue 16): what a table
// and the organiser's desk share, without the broker itself.
//
//   - The table registry in the desk's data folder (AddTable, ReadCreds,
//     Tables): each table has its own NATS user and password, may publish
//     only under its own subject prefix, and signs its records with its
//     own ed25519 key, registered here.
//   - Subjects: wolftable.table.<name>.status|start|end|penalty|record
//     (Subject). Status is the public view of a table (nothing hidden).
//   - The table's side: Publisher. The journals folder is the outbox: a
//     finished journal without a "<file>.sent" marker is (re)sent with
//     JetStream, its final hash as the message id, at connect, after a
//     reconnect and when a game ends; the marker is written only after
//     the PubAck. Publishing never blocks the game.
//   - The desk's side: Store (records by final hash, verified: chain,
//     replay, and the signature key must be the table's registered key;
//     refused records are kept with their reason) and the scoring packs
//     and Standings, a pure function of a pack and the stored games.
//
// The broker (an embedded nats-server, or a venue's cluster) and the web
// pages are in desk/deskserver, so that the table's daemon does not link
// the server.
package desk
