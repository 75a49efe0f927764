// The pieces that let the extractor read code nobody here wrote: keys by
// their words, shell wrappers as bash runs them, console-script entry
// points, the model-type lexicon, and the real-corpus scorer.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "advisor/entry_points.h"
#include "advisor/field_keys.h"
#include "advisor/launch_command.h"
#include "advisor/model_type.h"
#include "advisor/real_corpus.h"
#include "advisor/run_values.h"
#include "advisor/pasted_command.h"
#include "advisor/shell_script.h"

namespace schedmate {
namespace {

TEST(FieldKeys, ReadsKeysByTheirWords) {
  EXPECT_EQ(ClassifyKey("per_device_train_batch_size").field, "batch_size");
  EXPECT_EQ(ClassifyKey("TRAIN.IMS_PER_BATCH").field, "batch_size");
  EXPECT_EQ(ClassifyKey("train_dataloader.batch_size").field, "batch_size");
  EXPECT_EQ(ClassifyKey("eval_batch_size").field, "");
  EXPECT_EQ(ClassifyKey("val_dataloader.batch_size").field, "");
  EXPECT_EQ(ClassifyKey("auto_scale_lr.base_batch_size").field, "");
  EXPECT_GT(ClassifyKey("micro-batch-size").specificity, ClassifyKey("global-batch-size").specificity);
  EXPECT_EQ(ClassifyKey("max_steps").field, "steps");
  EXPECT_EQ(ClassifyKey("SOLVER.MAX_ITER").field, "steps");
  EXPECT_EQ(ClassifyKey("warmup_steps").field, "");
  EXPECT_EQ(ClassifyKey("gradient_accumulation_steps").field, "");
  EXPECT_EQ(ClassifyKey("num_train_timesteps").field, "");  // a diffusion's noise steps
  EXPECT_EQ(ClassifyKey("steps_per_epoch").field, "");
  EXPECT_EQ(ClassifyKey("num_train_epochs").field, "epochs");
  EXPECT_EQ(ClassifyKey("start_epoch").field, "");
  EXPECT_EQ(ClassifyKey("optimizer.lr").field, "learning_rate");
  EXPECT_EQ(ClassifyKey("min_lr").field, "");
  EXPECT_EQ(ClassifyKey("lr_scheduler.warmup_lr").field, "");
  EXPECT_EQ(ClassifyKey("model.name_or_path").field, "model_name");
  EXPECT_EQ(ClassifyKey("model.data_preprocessor.type").field, "");
  EXPECT_EQ(ClassifyKey("datasets.0.path").field, "dataset");
  EXPECT_EQ(ClassifyKey("data.params.train.target").field, "dataset");
  EXPECT_EQ(ClassifyKey("env_id").field, "dataset");
  EXPECT_EQ(ClassifyKey("fp16.enabled").field, "fp16");
  EXPECT_EQ(ClassifyKey("mixed_precision").field, "precision");
  EXPECT_EQ(ClassifyKey("lrate").field, "learning_rate");
  EXPECT_EQ(ClassifyKey("policy.type").field, "model_name");  // the policy an agent trains
  EXPECT_EQ(ClassifyKey("batch_per_epoch").field, "");       // a count of batches, not their size
  EXPECT_EQ(ClassifyKey("lr_scheduler.type").field, "");
  EXPECT_EQ(ClassifyKey("train_for_env_steps").field, "steps");  // RL budgets
  EXPECT_EQ(ClassifyKey("num_train_frames").field, "steps");
  EXPECT_EQ(ClassifyKey("num_frames").field, "");  // a video clip's length
  EXPECT_EQ(ClassifyKey("env_steps_per_update").field, "");
  EXPECT_EQ(ClassifyKey("TRAIN.lr_encoder").field, "learning_rate");
  EXPECT_LT(ClassifyKey("lr_encoder").specificity, ClassifyKey("lr").specificity);  // one part's rate
  EXPECT_EQ(ClassifyKey("lr_mult").field, "");
}

TEST(ShellScript, VariablesArraysHeredocsAndSbatch) {
  auto l = FindShellLaunch(
      "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:8\nMODEL=${MODEL:-gpt2}\nARGS=(\n  --lr 3e-4\n  --bs $2\n)\n"
      "for seed in 1 2 3; do\npip install -e .\npython prepare_data.py\n"
      "torchrun --nproc_per_node 8 $(dirname \"$0\")/train.py --model $MODEL --seed $seed ${ARGS[@]} --data $1\n",
      {{"imagenet", "64"}, {}, "scripts/run.sh", {}});
  ASSERT_TRUE(l.has_value());
  EXPECT_NE(l->line.find("scripts/train.py --model gpt2 --seed 1 --lr 3e-4 --bs 64 --data imagenet"), std::string::npos)
      << l->line;
  EXPECT_EQ(l->nodes, 2);
  EXPECT_EQ(l->gpus_per_node, 8);
  auto h = FindShellLaunch("read -r -d '' CMD <<EOF\npkg.train \\\n --lr 1\nEOF\ndeepspeed --module $CMD\n", {});
  ASSERT_TRUE(h.has_value());
  EXPECT_NE(h->line.find("--module pkg.train"), std::string::npos) << h->line;
  EXPECT_FALSE(FindShellLaunch("echo hello\nls\n", {}).has_value());
  // A recipe's stages: the data, averaging and decoding stages are not the training launch.
  auto stages = FindShellLaunch("stage=0\nif [ ${stage} -le 0 ]; then\n  bash ./local/data.sh\nfi\n"
                                "if [ ${stage} -le 1 ]; then\n  ./local/train.sh conf/x.yaml\nfi\n"
                                "avg.sh best exp/ckpt 10\n./local/decode.sh conf/x.yaml\n", {});
  ASSERT_TRUE(stages.has_value());
  EXPECT_NE(stages->line.find("local/train.sh"), std::string::npos) << stages->line;
  // A script copied into the experiment directory and run from there runs the repository's file.
  auto copied = FindShellLaunch("exp_dir=exp/$1\nmkdir -p ${exp_dir}\ncp tool/train.sh tool/train.py cfg/a.yaml ${exp_dir}\n"
                                "python -u ${exp_dir}/train.py --config=cfg/a.yaml\n", {{"run1"}, {}, "tool/train.sh", {}});
  ASSERT_TRUE(copied.has_value());
  EXPECT_NE(copied->line.find("python -u tool/train.py --config=cfg/a.yaml"), std::string::npos) << copied->line;
  auto m = FindShellLaunch("nodes=4\nprocs=$((nodes * 8))\naccelerate launch --num_processes $procs \\\n"
                           "  --deepspeed_multinode_launcher standard train.py --lr 1 --save_step 2000\"\n", {});
  ASSERT_TRUE(m.has_value());
  auto ms = ParseLaunchCommand(m->line);
  ASSERT_TRUE(ms.ok()) << m->line;
  EXPECT_EQ(ms->entry, "train.py") << m->line;  // the launcher's valued option did not swallow the script
  EXPECT_EQ(ms->nproc_per_node, 32);    // $((nodes * 8))
  auto t = FindShellLaunch("P=wmt; M=transformer; t2t-trainer --problem=$P --model=$M\n", {{}, {}, "", {"t2t-trainer"}});
  ASSERT_TRUE(t.has_value());
  EXPECT_NE(t->line.find("--problem=wmt --model=transformer"), std::string::npos) << t->line;
  // Kaldi-style recipes: --stage 4 through parse_options.sh selects the stage-4 block.
  auto k = FindShellLaunch(
      "stage=0\nstop_stage=9\n. tools/parse_options.sh\n"
      "if [ ${stage} -le 1 ] && [ ${stop_stage} -ge 1 ]; then\n  python local/make_lists.py\nfi\n"
      "if [ ${stage} -le 4 ] && [ ${stop_stage} -ge 4 ]; then\n  torchrun --nproc_per_node 2 wenet/bin/train.py\nfi\n",
      {{"--stage", "4", "--stop_stage", "4"}, {}});
  ASSERT_TRUE(k.has_value());
  EXPECT_NE(k->line.find("wenet/bin/train.py"), std::string::npos) << k->line;
  EXPECT_TRUE(LooksLikeSideStep("tools/download_data.py"));
  EXPECT_FALSE(LooksLikeSideStep("train_net.py"));
}

TEST(ShellScript, PastedCommandsKeepTheirShape) {
  // Prompts go; a variable the command never sets becomes a placeholder, not an empty word.
  EXPECT_EQ(PastedCommand("$ export HF_TOKEN=x\n$ autotrain --config c.yaml"), "export HF_TOKEN=x\nautotrain --config c.yaml");
  EXPECT_EQ(PastedCommand("!python train.py"), "python train.py");
  EXPECT_EQ(PastedCommand("torchrun --nproc_per_node $NUM_GPU --master_port $PORT train.py --lr ${LR:-1}"),
            "torchrun --nproc_per_node <NUM_GPU> --master_port <PORT> train.py --lr ${LR:-1}");
  EXPECT_EQ(PastedCommand("N=2; torchrun --nproc_per_node $N t.py --out $HOME/x '$KEEP'"),
            "N=2; torchrun --nproc_per_node $N t.py --out $HOME/x '$KEEP'");
  auto s = ParseLaunchCommand(PastedCommand("python -m torch.distributed.launch --nproc_per_node $NUM_GPU --master_port $PORT_ID train.py --lr 1"), {});
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->entry, "train.py");
  auto uv = ParseLaunchCommand("uv run --with x python train.py --lr 1", {});
  ASSERT_TRUE(uv.ok()) << uv.status().message();
  EXPECT_EQ(uv->entry, "train.py");
  // if/else on string tests: the branch the arguments choose.
  std::string branches = "CMD=\"accelerate launch train.py --lr 1\"\nif [ -n \"$1\" ]; then\n  python mason.py --image \"$1\" -- $CMD\n"
                         "else\n  echo local\n  $CMD\nfi\n";
  auto local = FindShellLaunch(branches, {});
  ASSERT_TRUE(local.has_value());
  EXPECT_NE(local->line.find("accelerate launch train.py"), std::string::npos) << local->line;
  EXPECT_EQ(local->line.find("mason"), std::string::npos) << local->line;
  auto remote = FindShellLaunch(branches, {{"img"}, {}});
  ASSERT_TRUE(remote.has_value());
  EXPECT_NE(remote->line.find("mason.py"), std::string::npos) << remote->line;
  auto um = ParseLaunchCommand("python -um pkg.train --x 1", {});
  ASSERT_TRUE(um.ok()) << um.status().message();
  EXPECT_EQ(um->entry, "pkg.train");
  EXPECT_EQ(um->entry_kind, LaunchSpec::Entry::kModule);
  // A shift inside $(( )) is no heredoc; ${@:2} is the arguments from the second on.
  auto w = FindShellLaunch("NGPUS=$1\nPY_ARGS=${@:2}\nPORT=$(( ((RANDOM<<15)|RANDOM) % 49152 ))\n"
                           "torchrun --nproc_per_node=${NGPUS} train.py ${PY_ARGS}\n",
                           {{"8", "--cfg", "a.yaml"}, {}});
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->line, "torchrun --nproc_per_node=8 train.py --cfg a.yaml");
  auto ds = ParseLaunchCommand("deepspeed {num_gpus_flag} --module training.trainer --epochs 2", {});
  ASSERT_TRUE(ds.ok()) << ds.status().message();
  EXPECT_EQ(ds->entry, "training.trainer");
}

TEST(EntryPoints, SetupPyCfgAndPyproject) {
  auto a = ParseConsoleScripts("entry_points={'console_scripts': ['fairseq-train = fairseq_cli.train:cli_main']}");
  ASSERT_TRUE(a.count("fairseq-train"));
  EXPECT_EQ(a["fairseq-train"].module, "fairseq_cli.train");
  EXPECT_EQ(a["fairseq-train"].function, "cli_main");
  auto b = ParseConsoleScripts("[project.scripts]\nyolo = \"ultralytics.cfg:entrypoint\"\nversion = \"1.0\"\n");
  ASSERT_TRUE(b.count("yolo"));
  EXPECT_EQ(b["yolo"].module, "ultralytics.cfg");
  EXPECT_FALSE(b.count("version"));
}

// A backbone or an encoder family serves many tasks: the task the data or
// the paths name wins over the family's own (ELECTRA on MNLI classifies;
// a ResNet on ADE20K segments); without such data, or with data that agrees
// with the family, the family decides.
TEST(ModelType, TheDataTaskWinsOverABackbone) {
  ModelTypeEvidence glue;
  glue.model_name = "electra_base";
  glue.dataset = "mnli";
  glue.callees = {"modeling.ElectraModel"};
  EXPECT_EQ(GuessModelType(glue).type, "text-classification");
  glue.dataset = "squad";
  EXPECT_EQ(GuessModelType(glue).type, "question-answering");
  glue.dataset = "";
  EXPECT_EQ(GuessModelType(glue).type, "language-modeling");
  ModelTypeEvidence mlm;  // pre-training text is an encoder's masked-LM data: no LLM task
  mlm.model_name = "bert-base-uncased";
  mlm.dataset = "my-copy-c4";
  mlm.callees = {"transformers.BertForMaskedLM"};
  EXPECT_EQ(GuessModelType(mlm).type, "language-modeling");
  ModelTypeEvidence seg;
  seg.model_name = "resnet50dilated";
  seg.dataset = "ade20k";
  EXPECT_EQ(GuessModelType(seg).type, "segmentation");
  seg.dataset = "imagenet";
  EXPECT_EQ(GuessModelType(seg).type, "image-classification");
  ModelTypeEvidence atari;  // an Atari game is RL data, whatever transformer learns from it
  atari.dataset = "Breakout";
  atari.callees = {"mingpt.model_atari.GPT"};
  EXPECT_EQ(GuessModelType(atari).type, "reinforcement-learning");
  ModelTypeEvidence lm;  // WikiText-103 by its short name, beside a path word for classification
  lm.model_name = "s4";
  lm.dataset = "wt103";
  lm.paths = {"configs/experiment/lm/s4-wt103.yaml", "classification.py"};
  EXPECT_EQ(GuessModelType(lm).type, "llm-pretrain");
  ModelTypeEvidence vlm;  // an LLM fine-tuned with a vision tower's settings beside it
  vlm.callees = {"transformers.LlamaForCausalLM.from_pretrained", "get_peft_model", "LoraConfig"};
  vlm.paths = {"shell/internvl2.5/finetune_lora.sh"};
  EXPECT_EQ(GuessModelType(vlm).type, "llm-sft");
  vlm.paths.push_back("vision_select_layer");
  EXPECT_EQ(GuessModelType(vlm).type, "vision-language");
  ModelTypeEvidence corpus;  // a public pre-training corpus alone
  corpus.dataset = "dclm_baseline_1.0";
  EXPECT_EQ(GuessModelType(corpus).type, "llm-pretrain");
  std::string why;
  EXPECT_EQ(NameOf("dclm_baseline_1.0", true, &why), "dclm_baseline");  // the known corpus it starts with
}

// Task words inside class-style names (PPLiteSeg → seg) and in the data's
// own name (optic_disc_seg) say the task; a word that is itself a dataset's
// (glue in code_x_glue_…) votes once, as data.
TEST(ModelType, TaskWordsInClassNamesAndDataNames) {
  ModelTypeEvidence seg;
  seg.model_name = "PPLiteSeg";
  EXPECT_EQ(GuessModelType(seg).type, "segmentation");
  ModelTypeEvidence data;
  data.dataset = "optic_disc_seg";
  EXPECT_EQ(GuessModelType(data).type, "segmentation");
  ModelTypeEvidence code;
  code.dataset = "code_x_glue_ct_code_to_text/python";
  code.callees = {"AutoModelForSeq2SeqLM.from_pretrained"};
  EXPECT_EQ(GuessModelType(code).type, "seq2seq");
}

// The run's own model name saying its task outweighs the half votes of model
// classes a library defines beside it; a family's name is not a task word.
TEST(ModelType, TheModelsOwnTaskWord) {
  ModelTypeEvidence tts;
  tts.model_name = "parler-tts-mini-v1";
  tts.callees = {"transformers.WhisperForConditionalGeneration.from_pretrained"};
  EXPECT_EQ(GuessModelType(tts).type, "speech-synthesis");
  ModelTypeEvidence det;  // DINO the detector: "dino" is a family (and a path word), not a task word
  det.model_name = "DINO";
  det.dataset = "coco";
  det.callees = {"datasets.coco_eval.CocoEvaluator", "get_coco_api_from_dataset"};
  det.paths = {"config/DINO/DINO_5scale.py"};
  EXPECT_EQ(GuessModelType(det).type, "detection");
}

TEST(ModelType, EvidenceIsWeighed) {
  ModelTypeEvidence e;
  e.model_name = "resnet50";
  e.callees = {"moco.builder.MoCo"};
  e.paths = {"main_moco.py"};
  EXPECT_EQ(GuessModelType(e).type, "self-supervised-vision");
  ModelTypeEvidence llm;
  llm.model_name = "meta-llama/Llama-2-7b-hf";
  EXPECT_EQ(GuessModelType(llm).type, "llm-pretrain");
  llm.callees = {"get_peft_model"};
  EXPECT_EQ(GuessModelType(llm).type, "llm-sft");
  ModelTypeEvidence diffusion;  // LoRA on a diffusion model stays diffusion
  diffusion.model_name = "runwayml/stable-diffusion-v1-5";
  diffusion.callees = {"LoraConfig", "get_peft_model"};
  EXPECT_EQ(GuessModelType(diffusion).type, "diffusion");
  ModelTypeEvidence options;  // "options/" is not the OPT family
  options.paths = {"options/train/train_x.yml"};
  EXPECT_EQ(GuessModelType(options).type, "");
  ModelTypeEvidence tts;  // a task word of its own in the model name: glow_tts synthesises speech
  tts.model_name = "glow_tts";
  tts.far_callees = {"torch.nn.CTCLoss"};  // an aligner loss deep in the library
  EXPECT_EQ(GuessModelType(tts).type, "speech-synthesis");
  ModelTypeEvidence audio;  // mel spectrograms and torchaudio feed synthesis and vocoders as much as recognition
  audio.callees = {"torchaudio.transforms.MelSpectrogram"};
  audio.imports = {"torchaudio"};
  EXPECT_EQ(GuessModelType(audio).type, "");
  audio.callees.push_back("torch.nn.CTCLoss");  // a recognition loss decides
  EXPECT_EQ(GuessModelType(audio).type, "speech-recognition");
  ModelTypeEvidence part;  // matched whole: "tts" inside another word is not the task word
  part.model_name = "mutts";
  EXPECT_EQ(GuessModelType(part).type, "");
  EXPECT_EQ(LexiconWordIn("data", "[your imagenet-folder with train and val folders]"), "imagenet");
  // Public families beyond the big ones: vocoders, codecs' GANs, EDM, video diffusion, recsys, RL agents.
  for (auto [name, type] : std::vector<std::pair<const char*, const char*>>{
           {"BigVGAN", "speech-synthesis"}, {"vocos", "speech-synthesis"}, {"edm2-img512-xs", "diffusion"},
           {"ltxv_2b", "diffusion"}, {"MMoE", "recsys"}, {"swagan", "gan"}, {"informer", "other"}}) {
    ModelTypeEvidence f;
    f.model_name = name;
    EXPECT_EQ(GuessModelType(f).type, type) << name;
  }
  ModelTypeEvidence lm1b;
  lm1b.dataset = "lm1b";
  EXPECT_EQ(GuessModelType(lm1b).type, "llm-pretrain");
  // One row per kind and word: a second row would silently never count.
  std::set<std::string> seen;
  std::istringstream rows{std::string(DefaultModelTypeLexicon())};
  for (std::string row; std::getline(rows, row);) {
    if (row.empty() || row[0] == '#') continue;
    std::string key = row.substr(0, row.find('\t', row.find('\t') + 1));
    EXPECT_TRUE(seen.insert(key).second) << "duplicate lexicon row: " << row;
  }
}

TEST(RunValues, NamesNumbersDevicesAndPrecision) {
  std::string why;
  EXPECT_EQ(NameOf("/path/to/imagenet/train", true, &why), "imagenet");
  EXPECT_EQ(NameOf("[your imagenet-folder with train and val folders]", true, &why), "imagenet");
  EXPECT_FALSE(NameOf("/path/to/data", true, &why).has_value());
  // Names built only of words that say what data is, not which, name nothing.
  EXPECT_FALSE(NameOf("ConstantLengthDataset", true, &why).has_value());
  EXPECT_FALSE(NameOf("DIRECTORY_OF_TRAIN_DATA", true, &why).has_value());
  EXPECT_FALSE(NameOf("ENV", true, &why).has_value());
  EXPECT_EQ(NameOf("random", true, &why), "random");  // synthetic data is still data
  EXPECT_EQ(NameOf("filelists/ljs_audio_text_train_filelist.txt.cleaned", true, &why), "ljs");
  EXPECT_EQ(NameOf("ldm.models.diffusion.ddpm.LatentDiffusion", false, &why), "LatentDiffusion");
  EXPECT_EQ(NameOf("meta-llama/Llama-2-7b-hf", false, &why), "meta-llama/Llama-2-7b-hf");
  EXPECT_EQ(NameOf("ImageNet22k:root=<PATH>", true, &why), "imagenet22k");
  EXPECT_EQ(NameOf("gym:Hopper-v2", true, &why), "Hopper-v2");
  EXPECT_EQ(NameOf("vqa_train,vqa_val", true, &why), "vqa");
  EXPECT_EQ(NameOf("swift/self-cognition#1000", true, &why), "swift/self-cognition");
  EXPECT_FALSE(NameOf("DDP", false, &why).has_value());
  EXPECT_FALSE(NameOf("data/manifest.train", true, &why).has_value());  // a split's file list names no data
  EXPECT_EQ(NameOf("['org/chat-pairs']", true, &why), "org/chat-pairs");
  EXPECT_EQ(NameStrength("SRModel"), -2);
  EXPECT_EQ(ToCount("30e3"), 30000);
  EXPECT_FALSE(ToCount("1.5").has_value());
  EXPECT_EQ(DeviceCount("0,"), 1);
  EXPECT_EQ(DeviceCount("[0, 1, 2]"), 3);
  EXPECT_EQ(DeviceCount("cpu"), 0);
  EXPECT_EQ(PrecisionOf("bf16-mixed"), "bf16");
  EXPECT_EQ(PrecisionOf("16"), "fp16");
  EXPECT_EQ(PrecisionOf("no"), "fp32");
  EXPECT_TRUE(IsUnset("???"));
  EXPECT_TRUE(LooksLikeEnvId("PongNoFrameskip-v4"));
  EXPECT_FALSE(LooksLikeEnvId("resnet-50"));
}

TEST(RealCorpus, ScoringAndManifestErrors) {
  EXPECT_EQ(ScoreField("model_name", Json("ViT-B/16"), Json("vit_b16")), FieldOutcome::kCorrect);
  EXPECT_EQ(ScoreField("model_name", Json("meta-llama/Llama-2-7b-hf"), Json("Llama-2-7b-hf")), FieldOutcome::kCorrect);
  EXPECT_EQ(ScoreField("dataset", Json::array({"imagenet", "ILSVRC2012"}), Json("ilsvrc2012")), FieldOutcome::kCorrect);
  EXPECT_EQ(ScoreField("dataset", Json(nullptr), Json("coco")), FieldOutcome::kWrong);
  EXPECT_EQ(ScoreField("dataset", Json(nullptr), Json(nullptr)), FieldOutcome::kCorrect);
  EXPECT_EQ(ScoreField("batch_size", Json(32), Json(nullptr)), FieldOutcome::kMissing);
  EXPECT_EQ(ScoreField("learning_rate", Json(3e-4), Json(0.0003)), FieldOutcome::kCorrect);
  EXPECT_EQ(ScoreField("learning_rate", Json(3e-4), Json(0.003)), FieldOutcome::kWrong);
  std::string path = ::testing::TempDir() + "/manifest.jsonl";
  std::ofstream(path) << "{\"id\":\"a\",\"repo\":\"o/n\",\"commit\":\"" << std::string(40, 'a')
                      << "\",\"command\":\"python t.py\",\"split\":\"dev\",\"labels\":{}}\n";
  auto bad = LoadRealCorpus(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("manifest.jsonl:1"), std::string::npos);
  EXPECT_NE(bad.status().message().find("labels.model_name"), std::string::npos);
  EXPECT_FALSE(FindMirror("/nonexistent", "o/n").has_value());
}

}  // namespace
}  // namespace schedmate
