/** A Lua script; a call passes the key names it touches (its comment lists them) apart from the other arguments. */
export interface LuaScript {
  name: string;
  lua: string;
}
