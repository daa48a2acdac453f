// Attributes, globals and methods through their inline caches (runtime/site_cache.h):
// LOAD_ATTR, STORE_ATTR, LOAD_GLOBAL, a module attribute of a global, LOAD_METHOD.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// The address of the entry, among the kPolymorphicEntries entries of `stride` bytes from
// `first` in `site`'s cache, whose 32-bit type version (each entry's first field) is
// `version`; `slow` if none is (or `version` is 0). Entry 0 is checked inline and the others
// by a loop in cold blocks, so a site that sees several types stays out of the helper (a base
// class's method run on subclasses: Richards' Task methods see four) while the hot path stays
// one branch (SlowIfEither: version 0, or not entry 0's; the cold blocks tell them apart). A
// loop rather than one compare for each: 7 instructions a site instead of 15.
int Lowerer::MatchEntry(int version, const void* site, int64_t first, int64_t stride, int slow) {
  static_assert(offsetof(AttrEntry, type_version) == 0 && offsetof(MethodEntry, type_version) == 0,
                "an entry's version first");
  const int entry = SiteAddress(site, first);
  const int others = ColdBlock();
  const int entry0 = Load(V(entry), 0, Type::kI32);
  SlowIfEither(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), Cond::kNe, V(version), V(entry0),
               others, lowering_ != nullptr ? lowering_->bc : -1);
  const int matched = cur_;
  SearchOtherEntries(version, site, first, stride, others, matched, slow, entry, [](int) {});
  return entry;
}

// The byte offset, in `obj`'s inline values, of the attribute whose AttrCache entry holds
// obj's type version; `slow` if none does (or the version is 0). As MatchEntry, but entry
// 0's version and offset are loaded straight from the site (SiteRefOf: the room's register
// and a displacement), and the loop over the others, in cold blocks, loads each one's offset
// with its version: the blocks join on the offset, not on the entry's address. The hot path
// computes no address and its access is indexed by the offset: two instructions fewer than
// MatchEntry's add, load and add, for two more in the loop (its start and each offset).
int Lowerer::MatchAttrOffset(int version, const void* site, int slow) {
  constexpr int64_t kFirst = offsetof(AttrCache, entries);
  static_assert(offsetof(AttrEntry, type_version) == 0, "an entry's version first");
  const SiteRef ref = SiteRefOf(site);
  const int others = ColdBlock();
  const int entry0 = LoadSite(ref, kFirst, Type::kI32);
  const int offset = LoadSite(ref, kFirst + offsetof(AttrEntry, offset), Type::kI64);
  SlowIfEither(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), Cond::kNe, V(version), V(entry0),
               others, lowering_ != nullptr ? lowering_->bc : -1);
  const int matched = cur_;
  SearchOtherEntries(
      version, site, kFirst, sizeof(AttrEntry), others, matched, slow, -1,
      [&](int entry) { Load(V(entry), offsetof(AttrEntry, offset), Type::kI64, offset); });
  return offset;
}

Lowerer::AttrSlot Lowerer::GuardedAttrSlot(Operand obj, const void* site, int slow) {
  const int tp = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
  const int offset = MatchAttrOffset(version, site, slow);
  const int values = Load(obj, runtime::kInlineValuesOffset, Type::kPtr);
  SlowIf(Cond::kEq, Type::kI64, V(values), Operand::Imm(0), slow);
  return {values, offset};
}

// A new attribute in inline values joins their insertion order, as 3.11's
// _PyDictValues_AddToInsertionOrder does: the byte before the values counts the
// attributes present (the one before it is the capacity), and the bytes below those list
// their indexes in order: size += 1, then values[-2 - size] = index, values[-2] = size.
void Lowerer::AddToInsertionOrder(int values, int offset) {
  const int size = ZExt(V(Load(V(values), -2, Type::kI8)));
  const int grown = Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64);
  const int at = Binary(lir::Op::kSub, V(values), V(grown), Type::kPtr);
  const int index = Binary(lir::Op::kLShr, V(offset), Operand::Imm(3), Type::kI64);
  Store(V(Truncate(index, Type::kI8)), V(at), -2, Type::kI8);
  Store(V(Truncate(grown, Type::kI8)), V(values), -2, Type::kI8);
}

// The end of an inline attribute load whose value is in the site's result, then `done`: an unset
// one (NULL) goes to `slow`, where the cached helper reads it as the generic path would (and raises
// for a missing one); a set one gains its reference. `hint_first`: CachedLoad's.
void Lowerer::EndCachedLoad(const Instr& in, Operand obj, SiteCache* site, int slow, int done,
                            bool hint_first) {
  SlowIf(Cond::kEq, Type::kI64, V(LirReg(in.dst)), Operand::Imm(0), slow);
  Incref(V(LirReg(in.dst)));
  Jmp(done);
  cur_ = slow;
  CachedLoad(in, obj, site, hint_first);
  Jmp(done);
  cur_ = done;
}

// The site's load by its cache: a64_load_attr_cached, or with `hint_first` (a site of
// instance values, or without feedback) the site stub that tries the cache's dict hint in
// guest code before it hands over to that helper (site_stubs.h): objects whose real dicts
// were made after the site compiled then stay out of the helper.
void Lowerer::CachedLoad(const Instr& in, Operand obj, SiteCache* site, bool hint_first) {
  if (!hint_first || rt_.site_stubs == 0 ||
      !Take(decisions_, Decision::kLowerAttrHintStub, in.bc)) {
    SiteCallChecked(in, Helper::a64_load_attr_cached, {obj, V(SiteAddress(site))});
    return;
  }
  lir::Instr call = CallByName(kAttrHintStubName, {obj, V(SiteAddress(site))});
  call.dst = LirReg(in.dst);
  Emit(std::move(call));
  NotePrevInstr(-1);  // the helper's, when the stub called it
  DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
}

void Lowerer::LowerLoadAttr(const Instr& in) {
  SiteCache* site =
      Take(decisions_, Decision::kLowerLoadAttrInline, in.bc) ? NewSiteCache() : nullptr;
  const Operand obj = V(LirReg(in.args[0]));
  if (site == nullptr) {
    CallChecked(in, Helper::PyObject_GetAttr, {obj, Imm(Name(in.imm))});
    return;
  }
  const auto cached = [&] { CachedLoad(in, obj, site, false); };
  if (InlineModuleProbe(in)) {
    return ModuleAttribute(in, obj, site, offsetof(AttrCache, module), LirReg(in.dst), -1, cached);
  }
  switch (TakeAttrForm(in, site)) {
    case runtime::AttrForm::kSlot:
      return LoadSlotMember(in, site);
    case runtime::AttrForm::kDictHint:
      return LoadDictHint(in, site);
    case runtime::AttrForm::kInlineValues:
      break;
  }
  if (!InstanceProbe(in)) return CachedLoad(in, obj, site, true);
  // Asked here, while this site's own decision is the last one taken (the guards below take
  // lower.guard-pair decisions).
  const bool planted = Planted(decisions_, Plant::kCacheIndex);
  const int slow = ColdBlock(), done = NewBlock();
  LoadItem(GuardedAttrSlot(obj, site, slow).At(planted ? 8 : 0), LirReg(in.dst));
  EndCachedLoad(in, obj, site, slow, done, true);
}

void Lowerer::LowerStoreAttr(const Instr& in) {
  SiteCache* site =
      Take(decisions_, Decision::kLowerStoreAttrInline, in.bc) ? NewSiteCache() : nullptr;
  const Operand obj = V(LirReg(in.args[0])), value = V(LirReg(in.args[1]));
  if (site == nullptr) {
    CallStatus(in, Helper::PyObject_SetAttr, {obj, Imm(Name(in.imm)), value});
    return;
  }
  // A dict-hint site's store is the helper's, which stores through the hint.
  if (TakeAttrForm(in, site) == runtime::AttrForm::kSlot) return StoreSlotMember(in, site);
  if (!InstanceProbe(in)) {
    SiteCallInt(in, Helper::a64_store_attr_cached, {obj, value, V(SiteAddress(site))});
    return;
  }
  const int slow = ColdBlock(), done = NewBlock();
  const AttrSlot place = GuardedAttrSlot(obj, site, slow);
  const int old = LoadItem(place.At(0));
  Incref(value);
  StoreItem(value, place.At(0));
  // 3.11's STORE_ATTR_INSTANCE_VALUE: a new attribute (as in __init__) joins the insertion
  // order, a replaced one is released.
  const int added = NewBlock(), replaced = NewBlock();
  Br(Cond::kEq, V(old), Operand::Imm(0), added, replaced);
  cur_ = added;
  AddToInsertionOrder(place.values, place.offset);
  Jmp(done);
  cur_ = replaced;
  Decref(old, false, in.bc, IsFloatLike(in.args[1]));
  Jmp(done);
  cur_ = slow;
  SiteCallInt(in, Helper::a64_store_attr_cached, {obj, value, V(SiteAddress(site))});
  Jmp(done);
  cur_ = done;
}

// The form of the site's entries that its feedback names (a `__slots__` member, an attribute in
// a real dict), written into its cache; kInlineValues for any other feedback, or without a
// runtime that can write it.
runtime::AttrForm Lowerer::TakeAttrForm(const Instr& in, SiteCache* site) {
  if (!rt_.set_attr_form) return runtime::AttrForm::kInlineValues;
  runtime::AttrForm form = runtime::AttrForm::kInlineValues;
  if (in.feedback == Feedback::kSlot) form = runtime::AttrForm::kSlot;
  if (in.feedback == Feedback::kDictHint) form = runtime::AttrForm::kDictHint;
  if (form != runtime::AttrForm::kInlineValues) rt_.set_attr_form(site, form);
  return form;
}

// A `__slots__` member's place at a slot site (feedback kSlot): the object's type version
// among the site's entries, whose offsets are members' in the object (AttrForm::kSlot). The
// type version stands for the member descriptor: it is a data descriptor, found before the
// instance's own attributes, and the type changes its version when its MRO changes.
Lowerer::AttrSlot Lowerer::GuardedSlotMember(int obj, SiteCache* site, int slow) {
  const int tp = Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr);
  const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
  return {obj, MatchAttrOffset(version, site, slow)};
}

// 3.11's LOAD_ATTR_SLOT: the member's value, which must be set (an unset one raises
// AttributeError in the helper).
void Lowerer::LoadSlotMember(const Instr& in, SiteCache* site) {
  const int obj = LirReg(in.args[0]);
  const int slow = ColdBlock(), done = NewBlock();
  LoadItem(GuardedSlotMember(obj, site, slow).At(0), LirReg(in.dst));
  EndCachedLoad(in, V(obj), site, slow, done);
}

// 3.11's STORE_ATTR_SLOT: the value replaces the member's, set or not, and the old one, if
// any, is released after.
void Lowerer::StoreSlotMember(const Instr& in, SiteCache* site) {
  const int obj = LirReg(in.args[0]);
  const Operand value = V(LirReg(in.args[1]));
  const int slow = ColdBlock(), done = NewBlock(), release = NewBlock();
  const ItemAddress place = GuardedSlotMember(obj, site, slow).At(0);
  const int old = LoadItem(place);
  Incref(value);
  StoreItem(value, place);
  Br(Cond::kEq, V(old), Operand::Imm(0), done, release);
  cur_ = release;
  Decref(old, false, in.bc, IsFloatLike(in.args[1]));
  Jmp(done);
  cur_ = slow;
  SiteCallInt(in, Helper::a64_store_attr_cached, {V(obj), value, V(SiteAddress(site))});
  Jmp(done);
  cur_ = done;
}

// The address of the entry at the site's hint in `obj`'s managed dict, as 3.11's
// LOAD_ATTR_WITH_HINT finds it: the type's version is the hint's (so no data descriptor of the
// name came since, and the type has a managed dict: the load helper fills a dict-hint site's
// hint for no other), the object has a real dict, the hint is within its keys' entries and the
// keys are unicode ones (entries of a key and a value, after the indices). `slow` otherwise.
int Lowerer::DictHintEntry(int obj, SiteCache* site, int slow) {
  constexpr int64_t kHint = offsetof(AttrCache, hint);
  const SiteRef ref = SiteRefOf(site);
  const int tp = Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr);
  const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
  const int cached = LoadSite(ref, kHint + offsetof(runtime::DictHint, type_version), Type::kI32);
  SlowIfEither(Cond::kEq, Type::kI32, V(version), Operand::Imm(0), Cond::kNe, V(version), V(cached),
               slow, lowering_ != nullptr ? lowering_->bc : -1);
  const int dict = Load(V(obj), runtime::kManagedDictOffset, Type::kPtr);
  SlowIf(Cond::kEq, Type::kI64, V(dict), Operand::Imm(0), slow);
  const int keys = Load(V(dict), offsetof(PyDictObject, ma_keys), Type::kPtr);
  const int index = ZExt(V(LoadSite(ref, kHint + offsetof(runtime::DictHint, index), Type::kI32)));
  const int n = Load(V(keys), offsetof(PyDictKeysObject, dk_nentries), Type::kI64);
  const int kind = ZExt(V(Load(V(keys), offsetof(PyDictKeysObject, dk_kind), Type::kI8)));
  SlowIfEither(Cond::kUge, Type::kI64, V(index), V(n), Cond::kEq, V(kind),
               Operand::Imm(DICT_KEYS_GENERAL), slow, lowering_ != nullptr ? lowering_->bc : -1);
  // DK_UNICODE_ENTRIES: the indices take 1 << dk_log2_index_bytes bytes.
  const int log2 =
      ZExt(V(Load(V(keys), offsetof(PyDictKeysObject, dk_log2_index_bytes), Type::kI8)));
  const int indices =
      Binary(lir::Op::kShl, V(Mov(Operand::Imm(1), Type::kI64)), V(log2), Type::kI64);
  const int entries = Binary(lir::Op::kAdd, V(keys), V(indices), Type::kPtr);
  const int at = Binary(lir::Op::kShl, V(index), Operand::Imm(4), Type::kI64);
  static_assert(sizeof(PyDictUnicodeEntry) == 16, "an entry is a key and a value");
  return Binary(lir::Op::kAdd, V(entries), V(at), Type::kPtr);
}

// 3.11's LOAD_ATTR_WITH_HINT: the entry's key is the site's name and its value is set (a
// split dict keeps its values apart, and its entries' are NULL: the helper reads those).
void Lowerer::LoadDictHint(const Instr& in, SiteCache* site) {
  const int obj = LirReg(in.args[0]);
  const int slow = ColdBlock(), done = NewBlock();
  const int entry = DictHintEntry(obj, site, slow);
  constexpr int64_t kEntries = offsetof(PyDictKeysObject, dk_indices);
  const int key = Load(V(entry), kEntries + offsetof(PyDictUnicodeEntry, me_key), Type::kPtr);
  SlowIf(Cond::kNe, Type::kI64, V(key), Imm(Name(in.imm)), slow);
  Load(V(entry), kEntries + offsetof(PyDictUnicodeEntry, me_value), Type::kPtr, LirReg(in.dst));
  EndCachedLoad(in, V(obj), site, slow, done);
}

// A site whose feedback says module, with its cache (the site's decision was taken when the
// cache was made): the ModuleEntry at `at` in it checked inline into `dst` (and NULL into
// `null_dst`, if any: LOAD_METHOD's first result), `cached` behind it. Without feedback, an
// attribute of a global that held a module at compile time (`math.sqrt`) is guessed so.
bool Lowerer::InlineModuleProbe(const Instr& in) const {
  return hir::ExpectsModule(in, module_global_regs_.count(in.args[0]) != 0) &&
         rt_.py_module_type != 0;
}

// dst = the value the ModuleEntry at `cache + at` remembers, with a new reference, when
// `obj` is its module and the module's dict still has the version tag it had (3.11's
// LOAD_ATTR_MODULE, for sites with that feedback); else a jump to `slow`.
// `unless_ne`, when given, is a pair of values that must be equal too, tested in one guard
// with the module's identity (`obj` must be safe to compare before that pair is).
void Lowerer::ModuleProbe(Operand obj, SiteRef cache, int64_t at, int dst, int slow,
                          std::optional<std::pair<int, int>> unless_ne, int bc) {
  const int module = LoadSite(cache, at + offsetof(ModuleEntry, module), Type::kPtr);
  if (unless_ne) {
    SlowIfEither(Cond::kNe, Type::kI64, V(unless_ne->first), V(unless_ne->second), Cond::kNe, obj,
                 V(module), slow, bc);
  } else {
    SlowIf(Cond::kNe, Type::kI64, obj, V(module), slow);
  }
  // The entry's module is borrowed: another object may have its address now.
  const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_module_type), slow);
  const int dict = Load(obj, offsetof(PyModuleObject, md_dict), Type::kPtr);
  CheckVersion(dict, cache, at + offsetof(ModuleEntry, version), slow);
  LoadSite(cache, at + offsetof(ModuleEntry, value), Type::kPtr, dst);
  Incref(V(dst));
}

// Goes to `slow` unless the frame's globals have the version tag GlobalCache `cache` holds.
void Lowerer::CheckGlobalsVersion(SiteRef cache, int slow) {
  const auto [version, cached] = GlobalsVersion(cache);
  SlowIf(Cond::kNe, Type::kI64, V(version), V(cached), slow);
}

// The frame's globals' version tag and the one GlobalCache `cache` holds (loads only: the
// globals dict and the cache are always there to read).
std::pair<int, int> Lowerer::GlobalsVersion(SiteRef cache) {
  const int globals = Load(V(frame_), offsetof(_PyInterpreterFrame, f_globals), Type::kPtr);
  const int version = Load(V(globals), offsetof(PyDictObject, ma_version_tag), Type::kI64);
  return {version, LoadSite(cache, offsetof(GlobalCache, globals_version), Type::kI64)};
}

// Goes to `slow` unless dict `dict`'s version tag equals the one cached at `cache + at`.
void Lowerer::CheckVersion(int dict, SiteRef cache, int64_t at, int slow) {
  const int version = Load(V(dict), offsetof(PyDictObject, ma_version_tag), Type::kI64);
  const int cached = LoadSite(cache, at, Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(version), V(cached), slow);
}

// Goes to `slow` unless the globals' tag, and unless `module_only` the builtins' tag too
// (both in one guard), are the ones GlobalCache `cache` holds.
void Lowerer::CheckGlobalTags(SiteRef cache, bool module_only, int slow, int bc) {
  if (module_only) return CheckGlobalsVersion(cache, slow);
  const auto [globals, cached_globals] = GlobalsVersion(cache);
  const int builtins = Load(V(frame_), offsetof(_PyInterpreterFrame, f_builtins), Type::kPtr);
  const int version = Load(V(builtins), offsetof(PyDictObject, ma_version_tag), Type::kI64);
  const int cached = LoadSite(cache, offsetof(GlobalCache, builtins_version), Type::kI64);
  SlowIfEither(Cond::kNe, Type::kI64, V(globals), V(cached_globals), Cond::kNe, V(version),
               V(cached), slow, bc);
}

void Lowerer::LowerLoadGlobal(const Instr& in) {
  SiteCache* site =
      Take(decisions_, Decision::kLowerLoadGlobalInline, in.bc) ? NewSiteCache() : nullptr;
  const int dst = LirReg(in.dst);
  if (site == nullptr) {
    SetPrevInstr(in.bc);
    Call(Helper::a64_load_global, {V(frame_), Imm(Name(in.imm))}, dst);
    DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
    return;
  }
  const int slow = ColdBlock(), done = NewBlock();
  const SiteRef cache = SiteRefOf(site);
  const bool module_only = hir::InGlobals(f_.code, in);  // its site checks the globals alone
  // The version tags alone: 3.11 gives every dict, and every change to one, a version tag no
  // other dict has or had (docs/cpython311.md), so equal tags mean the very dicts the cache
  // was filled from, unchanged since; the cache's dict pointers are the helper's.
  if (UseSiteStub(in.bc)) {
    const int value = CallNamed(module_only ? kGlobalStubName : kGlobalBuiltinStubName,
                                {V(frame_), V(AddressOf(cache, site))});
    SlowIf(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), slow);
    Mov(V(value), Type::kPtr, dst);
  } else {
    CheckGlobalTags(cache, module_only, slow, in.bc);
    LoadSite(cache, offsetof(GlobalCache, value), Type::kPtr, dst);
    Incref(V(dst));
  }
  Jmp(done);
  cur_ = slow;
  SiteCallChecked(
      in, module_only ? Helper::a64_load_global_module_cached : Helper::a64_load_global_cached,
      {V(AddressOf(cache, site))});
  Jmp(done);
  cur_ = done;
}

// The hot path: the globals' version checked (LowerLoadGlobal's), the module read from the
// global's cache without a reference, then the module probe (ModuleProbe) into attr.dst.
// Any failed guard runs the three instructions as they are, in a cold block.
void Lowerer::LowerModuleAttrOfGlobal(const Instr& global) {
  const Instr* attr_at = Following(global, 1);
  const Instr* release = Following(global, 2);
  // FuseModuleAttrs found the attribute load expecting a module; without the module type
  // (LIR-level tests) each is lowered on its own: the load here, the other two when the
  // block's loop reaches them.
  if (attr_at == nullptr || release == nullptr || rt_.py_module_type == 0) {
    return LowerLoadGlobal(global);
  }
  const Instr& attr = *attr_at;
  skip_ = 2;  // the attribute load and the release are lowered here
  SiteCache* global_site = NewSiteCache(&global);
  SiteCache* attr_site = NewSiteCache(&attr);
  const SiteRef cache = SiteRefOf(global_site);
  // The stub and the one-call cold path take the global's cache alone and find the
  // attribute's after it, where the function's room put it (a cache past the room is not).
  const bool adjacent = runtime::NextSiteCache(global_site) == attr_site;
  const bool stub = adjacent && UseSiteStub(global.bc);
  if (stub && rt_.set_miss_how && OneExitFits(global.state, attr.state)) {
    return ModuleAttrByStub(global, attr, cache, global_site);
  }
  const int slow = ColdBlock(), done = NewBlock();
  const bool method = attr.op == Op::kLoadMethod;  // [NULL, the module's attribute]
  const int64_t at = method ? offsetof(MethodCache, module) : offsetof(AttrCache, module);
  const int value_dst = ModuleAttrValueReg(attr);
  if (stub) {
    const int value = CallNamed(kModuleAttrStubName, {V(frame_), V(AddressOf(cache, global_site))});
    lowering_ = &attr;
    SlowIf(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), slow);
    Mov(V(value), Type::kPtr, value_dst);
  } else {
    // The globals' tag and the module's identity in one guard: the cached value is only
    // compared (not read through) before the tag says the globals still hold it.
    const std::pair<int, int> globals_version = GlobalsVersion(cache);
    const int module = LoadSite(cache, offsetof(GlobalCache, value), Type::kPtr);
    lowering_ = &attr;
    ModuleProbe(V(module), SiteRefOf(attr_site), at, value_dst, slow, globals_version, global.bc);
  }
  if (method) Mov(Operand::Imm(0), Type::kPtr, LirReg(attr.dst));
  Jmp(done);
  cur_ = slow;  // both loads and the module's release in one call: half the code
  lowering_ = &global;
  const SiteRefs caches{cache, global_site, attr_site};
  if (adjacent && OneExitFits(global.state, attr.state)) {
    ModuleAttrByOneCall(global, attr, caches);
  } else {
    ModuleAttrByStatus(global, attr, caches);
  }
  lowering_ = release;
  Jmp(done);
  cur_ = done;
}

// `module.attr` of a global as one call of the stub whose miss calls the helper itself
// (site_stubs.h): the hot path and the cold path of ModuleAttrByOneCall in one, with no
// cold block but the exit. The helper's `how` goes into the global's cache.
void Lowerer::ModuleAttrByStub(const Instr& global, const Instr& attr, const SiteRef& cache,
                               SiteCache* global_site) {
  rt_.set_miss_how(global_site, ModuleAttrHow(attr));
  // Lowered as the global (lowering_): its resume exit, which ModuleAttrExit makes too, must
  // name the global's instruction, where the interpreter starts again.
  const int value =
      CallNamed(kModuleAttrOrHelperStubName, {V(frame_), V(AddressOf(cache, global_site))});
  ModuleAttrExitIfNull(global, attr, value, ModuleAttrValueReg(attr));
}

// After the call that gave the attribute `value` or NULL (having stored prev_instr, the
// global's or the attribute's): the one exit, else the value in `value_dst` and
// LOAD_METHOD's NULL below it.
void Lowerer::ModuleAttrExitIfNull(const Instr& global, const Instr& attr, int value,
                                   int value_dst) {
  NotePrevInstr(-1);  // the stub or helper set it, to the global's or the attribute's
  const int exit = ModuleAttrExit(global.state, attr.state);
  const int cont = NewBlock();
  Emit(BrInstr(Cond::kEq, Type::kI64, V(value), Operand::Imm(0), exit, cont));
  cur_ = cont;
  if (value != value_dst) Mov(V(value), Type::kPtr, value_dst);
  if (attr.op == Op::kLoadMethod) Mov(Operand::Imm(0), Type::kPtr, LirReg(attr.dst));
}

// a64_module_attr_into_frame's `how`: method | slot << 1, the slot the module's stack entry
// takes in the attribute's frame state.
int64_t Lowerer::ModuleAttrHow(const Instr& attr) const {
  const int64_t slot = f_.code.nlocalsplus + static_cast<int64_t>(attr.state.stack.size()) - 1;
  return (attr.op == Op::kLoadMethod ? 1 : 0) | slot << 1;
}

// Its cold path as one call (the attribute's cache after the global's): the value or NULL,
// and one exit for the global's failure and the attribute's (ModuleAttrExit).
void Lowerer::ModuleAttrByOneCall(const Instr& global, const Instr& attr, const SiteRefs& caches) {
  const int value_dst = ModuleAttrValueReg(attr);
  Call(Helper::a64_module_attr_into_frame,
       {V(frame_), V(AddressOf(caches.global, caches.global_site)),
        Operand::Imm(ModuleAttrHow(attr))},
       value_dst);
  ModuleAttrExitIfNull(global, attr, value_dst, value_dst);
}

// Its cold path with a status: an exit for the global's failure (1) and one for the
// attribute's (2), whose state holds the module.
void Lowerer::ModuleAttrByStatus(const Instr& global, const Instr& attr, const SiteRefs& caches) {
  const bool method = attr.op == Op::kLoadMethod;
  const int g = LirReg(global.dst);
  const int out = ScratchAddr();
  const int status = Call(Helper::a64_module_attr_of_global,
                          {V(frame_), V(AddressOf(caches.global, caches.global_site)),
                           V(SiteAddress(caches.attr_site)), V(out), Operand::Imm(method ? 1 : 0)},
                          -1, Type::kI64);
  NotePrevInstr(-1);  // the global's, or the attribute's once the global loaded
  DeoptIf(global, Cond::kEq, V(status), Operand::Imm(1));
  lowering_ = &attr;
  Load(V(out), 0, Type::kPtr, g);  // the module when the attribute failed, for its exit
  DeoptIf(attr, Cond::kEq, V(status), Operand::Imm(2));
  Mov(V(g), Type::kPtr, LirReg(attr.dst));
  if (method) Load(V(out), 8, Type::kPtr, LirReg(attr.dst2));
}

// Whether one exit can stand for both of a module attribute's failures (ModuleAttrExit):
// the global's is a resume exit, the attribute's an error that leaves for the interpreter
// (no compiled handler), and the attribute's stack begins with the global's, entry for
// entry and borrowed alike (then LOAD_GLOBAL's NULL, if it pushes one, and the module).
bool Lowerer::OneExitFits(const FrameState& global, const FrameState& attr) {
  return global.kind == FrameState::Kind::kResume && attr.kind == FrameState::Kind::kError &&
         attr.catch_block < 0 && attr.stack.size() > global.stack.size() &&
         StackBeginsWith(attr, global);
}

// The attribute's error exit, with the entries below the module stored from registers and
// the module's entry the helper's (a64_module_attr_into_frame): when that is NULL, the
// runtime takes the global's resume exit instead (DeoptSite::code_if_top_null).
int Lowerer::ModuleAttrExit(const FrameState& global, const FrameState& attr) {
  return OutOfLine([&] {
    const int64_t resume = static_cast<int64_t>(AddDeoptSite(global, false));
    FrameState below = attr;
    below.stack.pop_back();
    if (below.borrowed.size() > below.stack.size()) below.borrowed.resize(below.stack.size());
    const uint64_t code = AddDeoptSite(below, true, resume);
    deopt_sites_->back().depth++;  // the module's entry, which the helper wrote
    Ret(Imm(static_cast<int64_t>(code)));
  });
}

void Lowerer::LowerLoadMethod(const Instr& in) {
  const Operand obj = V(LirReg(in.args[0]));
  SiteCache* site =
      Take(decisions_, Decision::kLowerLoadMethodInline, in.bc) ? NewSiteCache() : nullptr;
  if (site == nullptr) {
    const int p = ScratchAddr();
    CallStatus(in, Helper::a64_load_method, {obj, Imm(Name(in.imm)), V(p)});
    Load(V(p), 0, Type::kPtr, LirReg(in.dst));
    Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
    GiveBackLentSelf(in);
    return ReleaseGivenObject(in);
  }
  if (InlineModuleProbe(in)) {  // [NULL, the module's attribute]
    ModuleAttribute(in, obj, site, offsetof(MethodCache, module), LirReg(in.dst2), LirReg(in.dst),
                    [&] { LoadMethodCached(in, obj, V(SiteAddress(site))); });
    return ReleaseGivenObject(in);
  }
  if (!InstanceProbe(in)) {
    LoadMethodCached(in, obj, V(SiteAddress(site)));
    return ReleaseGivenObject(in);
  }
  const int slow = ColdBlock(), done = NewBlock(), hit = NewBlock();
  const int tp = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  const int version = Load(V(tp), offsetof(PyTypeObject, tp_version_tag), Type::kI32);
  const int entry =
      MatchEntry(version, site, offsetof(MethodCache, entries), sizeof(MethodEntry), slow);
  const int keys = Load(V(entry), offsetof(MethodEntry, keys), Type::kPtr);
  const int check = NewBlock();
  Emit(BrInstr(Cond::kEq, Type::kI64, V(keys), Operand::Imm(0), hit, check));  // no __dict__
  cur_ = check;
  // The entry's type has instances with inline values (keys set) and is a heap type: both
  // places are there to read, so one guard for the values and the type's shared keys.
  const int values = Load(obj, runtime::kInlineValuesOffset, Type::kPtr);
  const int type_keys = Load(V(tp), offsetof(PyHeapTypeObject, ht_cached_keys), Type::kPtr);
  SlowIfEither(Cond::kEq, Type::kI64, V(values), Operand::Imm(0), Cond::kNe, V(type_keys), V(keys),
               slow, in.bc);
  // Read through the keys only once they are the type's (alive).
  const int n = Load(V(keys), offsetof(PyDictKeysObject, dk_nentries), Type::kI64);
  const int n32 = Load(V(entry), offsetof(MethodEntry, nentries), Type::kI32);
  lir::Instr ext;
  ext.op = lir::Op::kZExt;
  ext.dst = out_.NewVReg(Type::kI64);
  ext.args = {V(n32)};
  const int cached_n = Emit(std::move(ext)).dst;
  SlowIf(Cond::kNe, Type::kI64, V(n), V(cached_n), slow);
  Jmp(hit);
  cur_ = hit;
  Load(V(entry), offsetof(MethodEntry, method), Type::kPtr, LirReg(in.dst));
  Incref(V(LirReg(in.dst)));
  Mov(obj, Type::kPtr, LirReg(in.dst2));
  if (!in.lent_self && !in.given_self) Incref(V(LirReg(in.dst2)));  // given: the object's own
  Jmp(done);
  cur_ = slow;
  LoadMethodCached(in, obj, V(SiteAddress(site)));
  ReleaseGivenObject(in);
  Jmp(done);
  cur_ = done;
}

// `super().name` and `super(cls, obj).name`: one helper call, its -1 the resume at the CALL
// (the op's state).
void Lowerer::LowerLoadMethodSuper(const Instr& in) {
  const int p = ScratchAddr();
  CallStatus(in,
             in.op == Op::kLoadMethodSuper ? Helper::a64_load_method_super
                                           : Helper::a64_load_method_super_of,
             {V(LirReg(in.args[0])), V(LirReg(in.args[1])), V(LirReg(in.args[2])),
              Imm(Name(in.imm)), V(p)});
  Load(V(p), 0, Type::kPtr, LirReg(in.dst));
  Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
}

// LOAD_METHOD through a64_load_method_cached, which checks and fills the site's cache.
void Lowerer::LoadMethodCached(const Instr& in, Operand obj, Operand cache) {
  const int p = ScratchAddr();
  SiteCallInt(in, Helper::a64_load_method_cached, {obj, V(p), cache});
  Load(V(p), 0, Type::kPtr, LirReg(in.dst));
  Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
  GiveBackLentSelf(in);
}

// After a helper made LOAD_METHOD's pair with references of its own: a given object
// (hir::Instr::given_self) is released, as the decref the op replaced would have, on either
// shape (on the method shape self holds the helper's reference, so it is not the last).
void Lowerer::ReleaseGivenObject(const Instr& in) {
  if (in.given_self) Decref(LirReg(in.args[0]), false, in.bc);
}

// After a helper made LOAD_METHOD's pair with references to both: a lent self
// (hir::Instr::lent_self) gives its reference back on the method shape. Never the last: the
// local the object came from holds one.
void Lowerer::GiveBackLentSelf(const Instr& in) {
  if (in.lent_self) OnMethodShape(LirReg(in.dst), [&] { ReleaseHeld(V(LirReg(in.dst2))); });
}

}  // namespace a64jit::lower::internal
