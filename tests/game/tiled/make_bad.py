#!/usr/bin/env python3
"""Writes bad/*.tmj: one broken Tiled map per error message of the .tmj reader, each a
small change to variants/flips.tmj (a map Tiled wrote). Run it from this folder after
regen.sh when flips.tmj changes; test_level_tiled.c holds the message each one must give."""
import copy, json, os

base = json.load(open('variants/flips.tmj'))

def obj(id, type, x, y, props=None, name="", **kw):
    o = {"id": id, "name": name, "type": type, "x": x, "y": y, "width": 16, "height": 16,
         "rotation": 0, "visible": True}
    if props:
        o["properties"] = [{"name": k, "type": "int" if isinstance(v, int) else "string", "value": v}
                           for k, v in props.items()]
    o.update(kw)
    return o

def layer(d, kind): return [l for l in d["layers"] if l["type"] == kind][0]
def objs(d): return layer(d, "objectgroup")["objects"]
def tiles(d): return layer(d, "tilelayer")
def setprop(d, name, value, typ="string"):
    d["properties"] = [p for p in d.get("properties", []) if p["name"] != name]
    if value is not None: d["properties"].append({"name": name, "type": typ, "value": value})

cases = {}
def case(name, *edits):
    d = copy.deepcopy(base)
    for e in edits: e(d)
    cases[name] = d

case("orientation", lambda d: d.update(orientation="isometric"))
case("tile_size", lambda d: d.update(tilewidth=32))
case("too_wide", lambda d: d.update(width=5000))
case("no_name", lambda d: setprop(d, "name", None))
case("name_hash", lambda d: setprop(d, "name", "Level #2"))
case("unknown_map_property", lambda d: setprop(d, "nmae", "x"))
case("bullets_zero", lambda d: setprop(d, "bullets", 0, "int"))
case("bullets_string", lambda d: setprop(d, "bullets", "lots"))
case("exit_not_level", lambda d: setprop(d, "exit", "next.txt"))
case("exit_missing", lambda d: setprop(d, "exit", "missing.tmj"))
case("exit_blank", lambda d: setprop(d, "exit", "my level.tmj"))
case("exit_control", lambda d: setprop(d, "exit", "next\u0003.tmj"))
case("two_tile_layers", lambda d: d["layers"].insert(1, dict(copy.deepcopy(tiles(d)), name="more", id=5)))
case("no_tile_layer", lambda d: d.update(layers=[l for l in d["layers"] if l["type"] != "tilelayer"]))
case("group_layer", lambda d: d["layers"].append({"id": 6, "name": "grouped", "type": "group", "layers": [],
                                                  "x": 0, "y": 0, "opacity": 1, "visible": True}))
case("layer_size", lambda d: tiles(d).update(width=5))
case("data_count", lambda d: tiles(d).update(data=tiles(d)["data"][:-1]))
case("empty_cell", lambda d: tiles(d)["data"].__setitem__(8, 0))
case("door_tile", lambda d: tiles(d)["data"].__setitem__(8, 10))
case("foreign_tile", lambda d: d["tilesets"].append({"firstgid": 25, "source": "sprites.tsx"}),
     lambda d: tiles(d)["data"].__setitem__(8, 27))
case("external_other", lambda d: d.update(tilesets=[{"firstgid": 1, "source": "dungeon.tsx"}]))
case("gid_fraction", lambda d: tiles(d)["data"].__setitem__(8, 1.5))
case("gid_negative", lambda d: tiles(d)["data"].__setitem__(8, -1))
case("gid_string", lambda d: tiles(d)["data"].__setitem__(8, "1"))
case("base64_char", lambda d: tiles(d).update(encoding="base64", data="BQAA*AAA"))
case("base64_short", lambda d: tiles(d).update(encoding="base64", data="BQAAAAUAAAA="))
case("encoding_unknown", lambda d: tiles(d).update(encoding="hex", data="0500"))
case("no_type", lambda d: objs(d).append(obj(20, "", 64, 32)))
case("unknown_type", lambda d: objs(d).append(obj(20, "spawn", 64, 32)))
case("class_unknown", lambda d: objs(d).append(dict(obj(20, "", 64, 32), **{"class": "goblin"})))
case("outside", lambda d: objs(d).append(obj(20, "coin", 200, 32, name="far")))
case("on_wall", lambda d: objs(d).append(obj(20, "coin", 0, 0)))
case("on_water", lambda d: objs(d).append(obj(20, "heart", 16, 32)))
case("two_on_tile", lambda d: objs(d).append(obj(20, "coin", 16, 16)))
case("two_players", lambda d: objs(d).append(obj(20, "player", 64, 32, name="twin")))
case("no_player", lambda d: objs(d).pop(0))
case("hp_zero", lambda d: objs(d).append(obj(20, "turret", 64, 32, {"hp": 0})))
case("hp_string", lambda d: objs(d).append(obj(20, "patroller", 64, 32, {"hp": "five"})))
case("key_no_color", lambda d: objs(d).append(obj(20, "key", 64, 32)))
case("key_pink", lambda d: objs(d).append(obj(20, "key", 64, 32, {"color": "pink"})))
case("color_on_enemy", lambda d: objs(d).append(obj(20, "chaser", 64, 32, {"color": "red"})))
case("portal_no_target", lambda d: objs(d).append(obj(21, "portal", 64, 32, name="link")))
case("portal_not_level", lambda d: objs(d).append(obj(21, "portal", 64, 32, {"target": "../../etc/passwd"}, name="link")))
case("portal_missing", lambda d: objs(d).append(obj(21, "portal", 64, 32, {"target": "nowhere.tmj"}, name="link")))
case("portal_bad_entry", lambda d: objs(d).append(obj(21, "portal", 64, 32, {"target": "flips.tmj", "entry": "we$t"}, name="link")))
case("entry_no_name", lambda d: objs(d).append(obj(20, "entry", 64, 32)))
case("entry_on_wall", lambda d: objs(d).append(obj(20, "entry", 0, 16, name="west")))
case("entry_twice", lambda d: objs(d).append(obj(20, "entry", 16, 16, name="door")))
case("sign_no_text", lambda d: objs(d).append(obj(20, "sign", 64, 32)))
case("sign_on_coin", lambda d: objs(d).append(obj(19, "coin", 64, 32)),
     lambda d: objs(d).append(obj(20, "sign", 64, 32, {"text": "hi"})))
case("sign_twice", lambda d: objs(d).append(obj(20, "sign", 48, 16, {"text": "again"})))
case("sign_hash", lambda d: objs(d).append(obj(20, "sign", 64, 32, {"text": "room #3"})))
case("sign_newline", lambda d: objs(d).append(obj(20, "sign", 64, 32, {"text": "two\nlines"})))
case("sign_too_long", lambda d: objs(d).append(obj(20, "sign", 64, 32, {"text": "x" * 97})))
case("template", lambda d: objs(d).append(dict(obj(20, "coin", 64, 32), template="coin.tx")))
case("object_no_id", lambda d: objs(d).append({k: v for k, v in obj(20, "coin", 64, 32).items() if k != "id"}))
case("tileset_no_firstgid", lambda d: d["tilesets"][0].pop("firstgid"))
case("properties_not_array", lambda d: d.update(properties={"name": "x"}))
case("big_gid", lambda d: tiles(d)["data"].__setitem__(8, 4294967296))

os.makedirs('bad', exist_ok=True)
for n, d in cases.items():
    with open(f'bad/{n}.tmj', 'w') as f: json.dump(d, f, indent=1)
text = json.dumps(base, indent=1)
open('bad/truncated.tmj', 'w').write(text[:300] + '\n')
open('bad/not_object.tmj', 'w').write('[1, 2, 3]\n')
open('bad/trailing.tmj', 'w').write(text + '\n}\n')
open('bad/not_xml.tmj', 'w').write('<?xml version="1.0"?>\n<map/>\n')
