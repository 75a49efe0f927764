#include "service/advise_cache.h"

#include <sys/stat.h>

#include <algorithm>

namespace schedmate {
namespace {

bool IsCommitId(const std::string& rev) {
  return rev.size() == 40 && std::all_of(rev.begin(), rev.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

void AppendFileStamp(const std::string& path, std::string* stamp) {
  struct stat st {};
  *stamp += path;
  if (stat(path.c_str(), &st) != 0) {
    *stamp += ":absent;";
    return;
  }
  *stamp += ":" + std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ":" +
            std::to_string(st.st_size) + ";";
}

// What must stay the same for a cached extraction to stand; nullopt: never cache.
std::optional<std::string> Stamp(const AdviseKey& key, const AdviceExtraction& x) {
  if (!x.metadata.ok()) return std::nullopt;
  if (!key.rev.empty()) return IsCommitId(key.rev) ? std::optional<std::string>("") : std::nullopt;
  std::string stamp;
  AppendFileStamp(key.repo, &stamp);
  for (const auto& rel : x.metadata->files_read) AppendFileStamp(key.repo + "/" + rel, &stamp);
  return stamp;
}

}  // namespace

std::string AdviseKey::Flat() const {
  std::string k = repo;
  for (const std::string* part : {&rev, &workdir, &cmd}) k += std::string(1, '\0') + *part;
  return k;
}

std::optional<AdviceExtraction> AdviseCache::Find(const AdviseKey& key) {
  std::optional<Entry> entry;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key.Flat());
    if (it == entries_.end()) return std::nullopt;
    entry = it->second;
  }
  // Stat outside the lock: other requests need not wait for this one's files.
  if (Stamp(key, entry->extraction) != entry->stamp) return std::nullopt;
  return std::move(entry->extraction);
}

void AdviseCache::Store(const AdviseKey& key, const AdviceExtraction& extraction) {
  std::optional<std::string> stamp = Stamp(key, extraction);
  if (!stamp) return;
  std::lock_guard<std::mutex> lock(mu_);
  std::string flat = key.Flat();
  if (entries_.insert_or_assign(flat, Entry{*stamp, extraction}).second) order_.push_back(flat);
  while (entries_.size() > capacity_) {
    entries_.erase(order_.front());
    order_.pop_front();
  }
}

}  // namespace schedmate
