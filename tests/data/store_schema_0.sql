-- A web store written by tablepress before schema versions (commit e630807): games, actions, variants, sim_jobs.
-- Game 9ab3958eac (flowers, 3 actions): seat 0's token is fhsYhJQpI0mg5qbve_P8F93sR8K7E9S-, seat 1's pqVNH-RveyFOMoVoZq2rvFHdHa8JFx-F.
-- Built with today's Store and WorkshopStore, then sqlite3's iterdump(); tests/test_web_store.py loads it.
BEGIN TRANSACTION;
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    public TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
INSERT INTO "actions" VALUES('9ab3958eac',0,0,'draw 1','draw 1',1.79663495827924489978e+09);
INSERT INTO "actions" VALUES('9ab3958eac',1,0,'place R4 0,-1','place R4 0,-1',1.79663495827981686586e+09);
INSERT INTO "actions" VALUES('9ab3958eac',2,1,'draw 1','draw 1',1.79663495827987074854e+09);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    names TEXT NOT NULL,
    seed INTEGER NOT NULL,
    variant TEXT,
    token_hashes TEXT NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    scores TEXT,
    winners TEXT,
    client TEXT,
    variant_id TEXT
);
INSERT INTO "games" VALUES('9ab3958eac','flowers',2,'{"summer": false}','["human", "human"]','["Ana", "Bo"]',7,NULL,'{"a84d80a685ff8f55d1ed1311c163921871771b0f7aa3e1c6babd8d025a94fc3a": 0, "c672f4dbd7687dca3693b1a558bfb8cd8d7cb88e45b4b11c69d5fe0b358dbd07": 1}',1.7966349582790207863e+09,'playing',NULL,NULL,'127.0.0.1',NULL);
INSERT INTO "games" VALUES('7151340382','by-this',2,'{"young": false, "first": "random"}','["human", "human"]','["Player 1", "Player 2"]',3,NULL,'{"d6c3850c51963fc877fa5b64a8e91dd854bd9783d1ec013e138c72b42db8815b": 0, "0b1061fefda73093d270e22f59e270ac578eed91113403acfa3e09fb06a1e7a5": 1}',1.79663495830459928517e+09,'playing',NULL,NULL,'10.0.0.2',NULL);
CREATE TABLE sim_jobs (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL,
    attempt INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    report TEXT,
    error TEXT,
    client TEXT,
    created REAL NOT NULL,
    started REAL,
    finished REAL
);
INSERT INTO "sim_jobs" VALUES('j1abc','{"game": "flowers", "games": 10, "arms": [{}], "players": 2}','queued',0,10,0,NULL,NULL,NULL,'127.0.0.1',1.7966349583065629005e+09,NULL,NULL);
INSERT INTO "sim_jobs" VALUES('j2abc','{"game": "pressed", "games": 4, "arms": [{}], "players": 2}','done',4,4,1,'{"game": "pressed", "games": 4}','<html>report</html>',NULL,NULL,1.79663495830658936501e+09,1.79663495830660891535e+09,1.79663495830665922168e+09);
CREATE TABLE variants (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    toml TEXT NOT NULL,
    overrides TEXT NOT NULL,
    client TEXT,
    created REAL NOT NULL
);
INSERT INTO "variants" VALUES('0a1b2c3d4e5f','flowers','Fewer cans','[cards]
','{"Watering Can": {"copies": 0}}','127.0.0.1',1.79663495830652499203e+09);
COMMIT;
